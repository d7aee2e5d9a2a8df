CREATE TABLE `queue_options` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`queue_id` integer NOT NULL,
	`parent_id` integer,
	`title` text NOT NULL,
	`message` text DEFAULT '' NOT NULL,
	`option` text NOT NULL,
	`media_path` text,
	`media_name` text,
	`media_mime` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`queue_id`) REFERENCES `queues`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`parent_id`) REFERENCES `queue_options`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `queue_options_queue_parent` ON `queue_options` (`queue_id`,`parent_id`);--> statement-breakpoint
ALTER TABLE `companies` ADD `schedules` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `queues` ADD `schedules` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `queues` ADD `integration_id` integer;--> statement-breakpoint
ALTER TABLE `queues` ADD `prompt_id` integer;