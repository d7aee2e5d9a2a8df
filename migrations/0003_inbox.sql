CREATE TABLE `tags` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`name` text NOT NULL,
	`color` text NOT NULL,
	`kanban` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tags_company_name` ON `tags` (`company_id`,`name`);--> statement-breakpoint
CREATE TABLE `contact_extra_info` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`contact_id` integer NOT NULL,
	`name` text NOT NULL,
	`value` text DEFAULT '' NOT NULL,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `contact_extra_info_contact` ON `contact_extra_info` (`contact_id`);--> statement-breakpoint
CREATE TABLE `contact_tags` (
	`contact_id` integer NOT NULL,
	`tag_id` integer NOT NULL,
	PRIMARY KEY(`contact_id`, `tag_id`),
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`tag_id`) REFERENCES `tags`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `contact_tags_tag` ON `contact_tags` (`tag_id`);--> statement-breakpoint
CREATE TABLE `contacts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`uuid` text NOT NULL,
	`name` text NOT NULL,
	`number` text,
	`number_key` text,
	`lid` text,
	`email` text DEFAULT '' NOT NULL,
	`profile_pic_url` text DEFAULT '' NOT NULL,
	`profile_pic_checked_at` integer,
	`is_group` integer DEFAULT false NOT NULL,
	`disable_bot` integer DEFAULT false NOT NULL,
	`whatsapp_id` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`whatsapp_id`) REFERENCES `whatsapps`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `contacts_company_number_key` ON `contacts` (`company_id`,`number_key`) WHERE number_key IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `contacts_company_lid` ON `contacts` (`company_id`,`lid`) WHERE lid IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `contacts_uuid` ON `contacts` (`uuid`);--> statement-breakpoint
CREATE INDEX `contacts_company_name` ON `contacts` (`company_id`,`name`);--> statement-breakpoint
CREATE TABLE `ticket_counts` (
	`company_id` integer NOT NULL,
	`status` text NOT NULL,
	`queue_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`is_group` integer NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`company_id`, `status`, `queue_id`, `user_id`, `is_group`)
);
--> statement-breakpoint
CREATE TABLE `ticket_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`ticket_id` integer NOT NULL,
	`type` text NOT NULL,
	`actor_user_id` integer,
	`from_status` text,
	`to_status` text NOT NULL,
	`from_user_id` integer,
	`to_user_id` integer,
	`from_queue_id` integer,
	`to_queue_id` integer,
	`from_whatsapp_id` integer,
	`to_whatsapp_id` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`ticket_id`) REFERENCES `tickets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`actor_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `ticket_events_ticket` ON `ticket_events` (`ticket_id`);--> statement-breakpoint
CREATE INDEX `ticket_events_company_created` ON `ticket_events` (`company_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `ticket_tags` (
	`ticket_id` integer NOT NULL,
	`tag_id` integer NOT NULL,
	PRIMARY KEY(`ticket_id`, `tag_id`),
	FOREIGN KEY (`ticket_id`) REFERENCES `tickets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`tag_id`) REFERENCES `tags`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `ticket_tags_tag` ON `ticket_tags` (`tag_id`);--> statement-breakpoint
CREATE TABLE `tickets` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`uuid` text NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`contact_id` integer NOT NULL,
	`whatsapp_id` integer,
	`queue_id` integer,
	`user_id` integer,
	`channel` text DEFAULT 'whatsapp' NOT NULL,
	`is_group` integer DEFAULT false NOT NULL,
	`chatbot` integer DEFAULT false NOT NULL,
	`last_message` text DEFAULT '' NOT NULL,
	`unread_messages` integer DEFAULT 0 NOT NULL,
	`imported` integer DEFAULT false NOT NULL,
	`closed_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`whatsapp_id`) REFERENCES `whatsapps`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`queue_id`) REFERENCES `queues`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tickets_uuid` ON `tickets` (`uuid`);--> statement-breakpoint
CREATE INDEX `tickets_company_status_updated` ON `tickets` (`company_id`,`status`,`updated_at`,`queue_id`,`user_id`,`contact_id`);--> statement-breakpoint
CREATE INDEX `tickets_company_updated` ON `tickets` (`company_id`,`updated_at`);--> statement-breakpoint
CREATE INDEX `tickets_contact` ON `tickets` (`contact_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `tickets_one_active` ON `tickets` (`company_id`,`contact_id`,`whatsapp_id`) WHERE status IN ('open', 'pending');--> statement-breakpoint
CREATE TABLE `message_reactions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`message_id` integer NOT NULL,
	`sender` text NOT NULL,
	`sender_name` text,
	`emoji` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`message_id`) REFERENCES `messages`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `message_reactions_message_sender` ON `message_reactions` (`message_id`,`sender`);--> statement-breakpoint
CREATE TABLE `messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`ticket_id` integer NOT NULL,
	`contact_id` integer,
	`wid` text,
	`remote_jid` text,
	`participant` text,
	`participant_name` text,
	`from_me` integer DEFAULT false NOT NULL,
	`user_id` integer,
	`body` text DEFAULT '' NOT NULL,
	`media_type` text DEFAULT 'chat' NOT NULL,
	`media_state` text DEFAULT 'none' NOT NULL,
	`media_path` text,
	`media_name` text,
	`media_mime` text,
	`media_size` integer,
	`ptt` integer DEFAULT false NOT NULL,
	`ack` integer DEFAULT 0 NOT NULL,
	`read` integer DEFAULT false NOT NULL,
	`is_deleted` integer DEFAULT false NOT NULL,
	`is_edited` integer DEFAULT false NOT NULL,
	`is_private` integer DEFAULT false NOT NULL,
	`old_messages` text,
	`quoted_msg_id` integer,
	`send_state` text,
	`send_error` text,
	`send_attempts` integer DEFAULT 0 NOT NULL,
	`provider_data` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`ticket_id`) REFERENCES `tickets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`contact_id`) REFERENCES `contacts`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `messages_ticket_created` ON `messages` (`ticket_id`,`created_at`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `messages_company_wid` ON `messages` (`company_id`,`wid`) WHERE wid IS NOT NULL;--> statement-breakpoint
CREATE INDEX `messages_send_state` ON `messages` (`send_state`) WHERE send_state IN ('queued', 'sending');--> statement-breakpoint
CREATE INDEX `messages_media_pending` ON `messages` (`media_state`) WHERE media_state = 'pending';