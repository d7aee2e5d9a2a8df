CREATE TABLE `prompts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`name` text NOT NULL,
	`prompt` text DEFAULT '' NOT NULL,
	`queue_id` integer,
	`max_tokens` integer DEFAULT 100 NOT NULL,
	`temperature` real DEFAULT 1 NOT NULL,
	`max_messages` integer DEFAULT 10 NOT NULL,
	`voice` text DEFAULT 'texto' NOT NULL,
	`voice_key` text DEFAULT '' NOT NULL,
	`voice_region` text DEFAULT '' NOT NULL,
	`api_key` text DEFAULT '' NOT NULL,
	`base_url` text DEFAULT '' NOT NULL,
	`model` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`queue_id`) REFERENCES `queues`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `prompts_company_name` ON `prompts` (`company_id`,`name`);--> statement-breakpoint
ALTER TABLE `messages` ADD `transcription` text;