CREATE TABLE `companies` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`email` text,
	`phone` text,
	`plan_id` integer NOT NULL,
	`status` integer DEFAULT true NOT NULL,
	`due_date` text,
	`recurrence` text DEFAULT 'MENSAL' NOT NULL,
	`document` text,
	`last_login` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`plan_id`) REFERENCES `plans`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `companies_name_unique` ON `companies` (`name`);--> statement-breakpoint
CREATE TABLE `settings` (
	`company_id` integer NOT NULL,
	`key` text NOT NULL,
	`value` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `settings_company_key` ON `settings` (`company_id`,`key`);--> statement-breakpoint
CREATE TABLE `plans` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`value_cents` integer DEFAULT 0 NOT NULL,
	`users` integer DEFAULT 0 NOT NULL,
	`connections` integer DEFAULT 0 NOT NULL,
	`queues` integer DEFAULT 0 NOT NULL,
	`use_whatsapp` integer DEFAULT true NOT NULL,
	`use_facebook` integer DEFAULT true NOT NULL,
	`use_instagram` integer DEFAULT true NOT NULL,
	`use_campaigns` integer DEFAULT true NOT NULL,
	`use_schedules` integer DEFAULT true NOT NULL,
	`use_internal_chat` integer DEFAULT true NOT NULL,
	`use_external_api` integer DEFAULT true NOT NULL,
	`use_kanban` integer DEFAULT true NOT NULL,
	`use_open_ai` integer DEFAULT true NOT NULL,
	`use_integrations` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `plans_name_unique` ON `plans` (`name`);--> statement-breakpoint
CREATE TABLE `queues` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`name` text NOT NULL,
	`color` text NOT NULL,
	`order_queue` integer DEFAULT 0 NOT NULL,
	`greeting_message` text DEFAULT '' NOT NULL,
	`out_of_hours_message` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `queues_company_color` ON `queues` (`company_id`,`color`);--> statement-breakpoint
CREATE UNIQUE INDEX `queues_company_name` ON `queues` (`company_id`,`name`);--> statement-breakpoint
CREATE TABLE `user_queues` (
	`user_id` integer NOT NULL,
	`queue_id` integer NOT NULL,
	PRIMARY KEY(`user_id`, `queue_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`queue_id`) REFERENCES `queues`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `user_queues_queue` ON `user_queues` (`queue_id`);--> statement-breakpoint
CREATE TABLE `user_sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`refresh_token_hash` text NOT NULL,
	`user_agent` text,
	`created_at` integer NOT NULL,
	`last_used_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`revoked_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `user_sessions_token` ON `user_sessions` (`refresh_token_hash`);--> statement-breakpoint
CREATE INDEX `user_sessions_user` ON `user_sessions` (`user_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`password_hash` text NOT NULL,
	`profile` text DEFAULT 'user' NOT NULL,
	`super` integer DEFAULT false NOT NULL,
	`online` integer DEFAULT false NOT NULL,
	`last_seen_at` integer,
	`whatsapp_id` integer,
	`start_work` text DEFAULT '00:00' NOT NULL,
	`end_work` text DEFAULT '23:59' NOT NULL,
	`farewell_message` text,
	`all_ticket` text DEFAULT 'disable' NOT NULL,
	`allow_group` integer DEFAULT false NOT NULL,
	`default_menu` text DEFAULT 'open' NOT NULL,
	`default_theme` text DEFAULT 'light' NOT NULL,
	`all_historic` text DEFAULT 'disabled' NOT NULL,
	`all_user_chat` text DEFAULT 'disabled' NOT NULL,
	`user_close_pending_ticket` text DEFAULT 'enabled' NOT NULL,
	`show_dashboard` text DEFAULT 'disabled' NOT NULL,
	`is_tricked` text DEFAULT 'enabled' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE INDEX `users_company` ON `users` (`company_id`,`name`);