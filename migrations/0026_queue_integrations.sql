CREATE TABLE `bot_sessions` (
	`ticket_id` integer PRIMARY KEY NOT NULL,
	`company_id` integer NOT NULL,
	`kind` text NOT NULL,
	`bot_id` integer NOT NULL,
	`external_id` text,
	`status` text DEFAULT 'active' NOT NULL,
	`last_message_id` integer DEFAULT 0 NOT NULL,
	`last_activity_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`ticket_id`) REFERENCES `tickets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `queue_integrations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`type` text NOT NULL,
	`name` text NOT NULL,
	`project_name` text DEFAULT '' NOT NULL,
	`json_content` text DEFAULT '' NOT NULL,
	`language` text DEFAULT 'pt-BR' NOT NULL,
	`url_n8n` text DEFAULT '' NOT NULL,
	`typebot_slug` text DEFAULT '' NOT NULL,
	`typebot_expires` integer DEFAULT 1 NOT NULL,
	`typebot_delay_message` integer DEFAULT 1000 NOT NULL,
	`typebot_keyword_finish` text DEFAULT '' NOT NULL,
	`typebot_keyword_restart` text DEFAULT '' NOT NULL,
	`typebot_restart_message` text DEFAULT '' NOT NULL,
	`typebot_unknown_message` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `queue_integrations_company_name` ON `queue_integrations` (`company_id`,`name`);