CREATE TABLE `inbound_pending` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`whatsapp_id` integer,
	`target_wid` text NOT NULL,
	`kind` text NOT NULL,
	`payload` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `inbound_pending_target` ON `inbound_pending` (`company_id`,`target_wid`);--> statement-breakpoint
CREATE INDEX `inbound_pending_created` ON `inbound_pending` (`created_at`);--> statement-breakpoint
CREATE TABLE `media_downloads` (
	`message_id` integer PRIMARY KEY NOT NULL,
	`company_id` integer NOT NULL,
	`whatsapp_id` integer,
	`attempts` integer DEFAULT 0 NOT NULL,
	`reuploads` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`last_error` text,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`message_id`) REFERENCES `messages`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `media_downloads_next` ON `media_downloads` (`next_attempt_at`);