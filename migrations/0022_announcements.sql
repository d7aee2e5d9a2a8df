CREATE TABLE `announcements` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`title` text NOT NULL,
	`text` text NOT NULL,
	`priority` integer DEFAULT 3 NOT NULL,
	`status` integer DEFAULT true NOT NULL,
	`media_path` text,
	`media_name` text,
	`media_mime` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `announcements_status_created` ON `announcements` (`status`,`created_at`,`id`);