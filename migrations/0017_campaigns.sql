CREATE TABLE `campaign_shippings` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`campaign_id` integer NOT NULL,
	`company_id` integer NOT NULL,
	`contact_list_item_id` integer,
	`contact_id` integer,
	`number` text NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`email` text DEFAULT '' NOT NULL,
	`jid` text,
	`state` text DEFAULT 'pending' NOT NULL,
	`message` text DEFAULT '' NOT NULL,
	`confirmation_message` text DEFAULT '' NOT NULL,
	`variant` integer DEFAULT 1 NOT NULL,
	`error` text,
	`checked_at` integer,
	`claimed_at` integer,
	`confirmation_requested_at` integer,
	`confirmed_at` integer,
	`delivered_at` integer,
	`wid` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`campaign_id`) REFERENCES `campaigns`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `campaign_shippings_campaign_number` ON `campaign_shippings` (`campaign_id`,`number`);--> statement-breakpoint
CREATE INDEX `campaign_shippings_campaign_state` ON `campaign_shippings` (`campaign_id`,`state`,`id`);--> statement-breakpoint
CREATE INDEX `campaign_shippings_number_state` ON `campaign_shippings` (`number`,`state`);--> statement-breakpoint
CREATE TABLE `campaigns` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`name` text NOT NULL,
	`message1` text DEFAULT '' NOT NULL,
	`message2` text DEFAULT '' NOT NULL,
	`message3` text DEFAULT '' NOT NULL,
	`message4` text DEFAULT '' NOT NULL,
	`message5` text DEFAULT '' NOT NULL,
	`confirmation_message1` text DEFAULT '' NOT NULL,
	`confirmation_message2` text DEFAULT '' NOT NULL,
	`confirmation_message3` text DEFAULT '' NOT NULL,
	`confirmation_message4` text DEFAULT '' NOT NULL,
	`confirmation_message5` text DEFAULT '' NOT NULL,
	`status` text DEFAULT 'INATIVA' NOT NULL,
	`confirmation` integer DEFAULT false NOT NULL,
	`scheduled_at` integer,
	`completed_at` integer,
	`whatsapp_id` integer,
	`contact_list_id` integer,
	`tag_list_id` integer,
	`file_list_id` integer,
	`media_path` text,
	`media_name` text,
	`media_mime` text,
	`prepared_at` integer,
	`paused_reason` text,
	`paused_detail` text,
	`waiting_reason` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`whatsapp_id`) REFERENCES `whatsapps`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `campaigns_company_name` ON `campaigns` (`company_id`,`name`);--> statement-breakpoint
CREATE INDEX `campaigns_status_scheduled` ON `campaigns` (`status`,`scheduled_at`);--> statement-breakpoint
CREATE TABLE `connection_send_counters` (
	`whatsapp_id` integer NOT NULL,
	`day` text NOT NULL,
	`sent` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`whatsapp_id`, `day`),
	FOREIGN KEY (`whatsapp_id`) REFERENCES `whatsapps`(`id`) ON UPDATE no action ON DELETE cascade
);
