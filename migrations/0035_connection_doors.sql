CREATE TABLE `connection_doors` (
	`whatsapp_id` integer PRIMARY KEY NOT NULL,
	`last_sent_at` integer,
	`restricted_at` integer,
	`restriction_detail` text,
	FOREIGN KEY (`whatsapp_id`) REFERENCES `whatsapps`(`id`) ON UPDATE no action ON DELETE cascade
);
