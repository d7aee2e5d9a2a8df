CREATE TABLE `chatbot_catch_up` (
	`id` integer PRIMARY KEY NOT NULL,
	`message_id` integer NOT NULL,
	`updated_at` integer NOT NULL
);
