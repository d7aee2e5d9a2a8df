CREATE TABLE `wa_auth_creds` (
	`whatsapp_id` integer PRIMARY KEY NOT NULL,
	`creds` text NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`whatsapp_id`) REFERENCES `whatsapps`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `wa_auth_keys` (
	`whatsapp_id` integer NOT NULL,
	`type` text NOT NULL,
	`key_id` text NOT NULL,
	`value` text NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`whatsapp_id`, `type`, `key_id`),
	FOREIGN KEY (`whatsapp_id`) REFERENCES `whatsapps`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `whatsapp_queues` (
	`whatsapp_id` integer NOT NULL,
	`queue_id` integer NOT NULL,
	PRIMARY KEY(`whatsapp_id`, `queue_id`),
	FOREIGN KEY (`whatsapp_id`) REFERENCES `whatsapps`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`queue_id`) REFERENCES `queues`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `whatsapp_queues_queue` ON `whatsapp_queues` (`queue_id`);--> statement-breakpoint
CREATE TABLE `whatsapps` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`name` text NOT NULL,
	`provider` text DEFAULT 'beta' NOT NULL,
	`channel` text DEFAULT 'whatsapp' NOT NULL,
	`status` text DEFAULT 'DISCONNECTED' NOT NULL,
	`qrcode` text DEFAULT '' NOT NULL,
	`pairing_code` text,
	`expiration_time` integer,
	`retries` integer DEFAULT 0 NOT NULL,
	`number` text,
	`is_default` integer DEFAULT false NOT NULL,
	`greeting_message` text DEFAULT '' NOT NULL,
	`complation_message` text DEFAULT '' NOT NULL,
	`out_of_hours_message` text DEFAULT '' NOT NULL,
	`rating_message` text DEFAULT '' NOT NULL,
	`token` text NOT NULL,
	`time_send_queue` integer DEFAULT 0 NOT NULL,
	`send_id_queue` integer,
	`expires_inactive_message` text DEFAULT '' NOT NULL,
	`expires_ticket` integer DEFAULT 0 NOT NULL,
	`time_use_bot_queues` integer DEFAULT 0 NOT NULL,
	`max_use_bot_queues` integer DEFAULT 3 NOT NULL,
	`prompt_id` integer,
	`allow_group` integer DEFAULT false NOT NULL,
	`expires_ticket_nps` integer DEFAULT 0 NOT NULL,
	`max_use_bot_queues_nps` integer DEFAULT 3 NOT NULL,
	`collective_vacation_start` text,
	`collective_vacation_end` text,
	`collective_vacation_message` text DEFAULT '' NOT NULL,
	`import_old_messages` text,
	`import_recent_messages` text,
	`import_old_messages_groups` integer DEFAULT false NOT NULL,
	`closed_tickets_post_imported` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`send_id_queue`) REFERENCES `queues`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `whatsapps_company` ON `whatsapps` (`company_id`,`name`);--> statement-breakpoint
CREATE UNIQUE INDEX `whatsapps_token` ON `whatsapps` (`token`);--> statement-breakpoint
CREATE UNIQUE INDEX `whatsapps_one_default` ON `whatsapps` (`company_id`) WHERE "whatsapps"."is_default" = 1;