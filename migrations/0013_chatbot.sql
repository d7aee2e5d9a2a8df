CREATE TABLE `chatbot_sessions` (
	`ticket_id` integer PRIMARY KEY NOT NULL,
	`company_id` integer NOT NULL,
	`contact_id` integer NOT NULL,
	`whatsapp_id` integer NOT NULL,
	`node` text DEFAULT 'start' NOT NULL,
	`queue_id` integer,
	`option_id` integer,
	`attempts` integer DEFAULT 0 NOT NULL,
	`window_start` integer,
	`last_prompt_at` integer,
	`last_message_id` integer DEFAULT 0 NOT NULL,
	`user_id` integer,
	`expires_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`ticket_id`) REFERENCES `tickets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `chatbot_sessions_nps` ON `chatbot_sessions` (`whatsapp_id`,`contact_id`) WHERE node = 'nps';--> statement-breakpoint
CREATE INDEX `chatbot_sessions_expiry` ON `chatbot_sessions` (`expires_at`) WHERE node = 'nps';--> statement-breakpoint
CREATE TABLE `user_ratings` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`company_id` integer NOT NULL,
	`ticket_id` integer NOT NULL,
	`user_id` integer,
	`rate` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`company_id`) REFERENCES `companies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`ticket_id`) REFERENCES `tickets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `user_ratings_ticket` ON `user_ratings` (`ticket_id`);--> statement-breakpoint
CREATE INDEX `user_ratings_company_created` ON `user_ratings` (`company_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `user_ratings_user` ON `user_ratings` (`user_id`);