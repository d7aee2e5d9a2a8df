CREATE TABLE `contact_list_items` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`contact_list_id` integer NOT NULL,
	`name` text NOT NULL,
	`number` text NOT NULL,
	`email` text DEFAULT '' NOT NULL,
	`is_whatsapp_valid` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`contact_list_id`) REFERENCES `contact_lists`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `contact_list_items_list_number` ON `contact_list_items` (`contact_list_id`,`number`);--> statement-breakpoint
CREATE INDEX `contact_list_items_list_name` ON `contact_list_items` (`contact_list_id`,`name`);--> statement-breakpoint
CREATE INDEX `contact_list_items_unchecked` ON `contact_list_items` (`company_id`,`is_whatsapp_valid`);--> statement-breakpoint
CREATE TABLE `contact_lists` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`name` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `contact_lists_company_name` ON `contact_lists` (`company_id`,`name`);--> statement-breakpoint
CREATE TABLE `spreadsheet_imports` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`user_id` integer,
	`target` text NOT NULL,
	`contact_list_id` integer,
	`file_name` text DEFAULT '' NOT NULL,
	`state` text NOT NULL,
	`total` integer DEFAULT 0 NOT NULL,
	`processed` integer DEFAULT 0 NOT NULL,
	`created` integer DEFAULT 0 NOT NULL,
	`updated` integer DEFAULT 0 NOT NULL,
	`rejected_count` integer DEFAULT 0 NOT NULL,
	`rejected` text DEFAULT '[]' NOT NULL,
	`rows` text,
	`error` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`contact_list_id`) REFERENCES `contact_lists`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `spreadsheet_imports_state` ON `spreadsheet_imports` (`state`);--> statement-breakpoint
CREATE INDEX `spreadsheet_imports_company` ON `spreadsheet_imports` (`company_id`);