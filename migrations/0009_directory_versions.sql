CREATE TABLE `directory_versions` (
	`company_id` integer PRIMARY KEY NOT NULL,
	`version` integer DEFAULT 0 NOT NULL
);

--> statement-breakpoint
-- The directory's version moves with every user, queue or connection added, renamed, recoloured, moved or removed.
CREATE TRIGGER `users_directory_insert` AFTER INSERT ON `users` BEGIN
  INSERT INTO directory_versions(company_id, version) VALUES (new.company_id, 1)
  ON CONFLICT DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `users_directory_update` AFTER UPDATE OF `name`, `company_id` ON `users`
WHEN old.name IS NOT new.name OR old.company_id IS NOT new.company_id BEGIN
  INSERT INTO directory_versions(company_id, version) VALUES (new.company_id, 1)
  ON CONFLICT DO UPDATE SET version = version + 1;
  INSERT INTO directory_versions(company_id, version) VALUES (old.company_id, 1)
  ON CONFLICT DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `users_directory_delete` AFTER DELETE ON `users` BEGIN
  INSERT INTO directory_versions(company_id, version) VALUES (old.company_id, 1)
  ON CONFLICT DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `queues_directory_insert` AFTER INSERT ON `queues` BEGIN
  INSERT INTO directory_versions(company_id, version) VALUES (new.company_id, 1)
  ON CONFLICT DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `queues_directory_update` AFTER UPDATE OF `name`, `color`, `company_id` ON `queues`
WHEN old.name IS NOT new.name OR old.color IS NOT new.color OR old.company_id IS NOT new.company_id BEGIN
  INSERT INTO directory_versions(company_id, version) VALUES (new.company_id, 1)
  ON CONFLICT DO UPDATE SET version = version + 1;
  INSERT INTO directory_versions(company_id, version) VALUES (old.company_id, 1)
  ON CONFLICT DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `queues_directory_delete` AFTER DELETE ON `queues` BEGIN
  INSERT INTO directory_versions(company_id, version) VALUES (old.company_id, 1)
  ON CONFLICT DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `whatsapps_directory_insert` AFTER INSERT ON `whatsapps` BEGIN
  INSERT INTO directory_versions(company_id, version) VALUES (new.company_id, 1)
  ON CONFLICT DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `whatsapps_directory_update` AFTER UPDATE OF `name`, `company_id` ON `whatsapps`
WHEN old.name IS NOT new.name OR old.company_id IS NOT new.company_id BEGIN
  INSERT INTO directory_versions(company_id, version) VALUES (new.company_id, 1)
  ON CONFLICT DO UPDATE SET version = version + 1;
  INSERT INTO directory_versions(company_id, version) VALUES (old.company_id, 1)
  ON CONFLICT DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `whatsapps_directory_delete` AFTER DELETE ON `whatsapps` BEGIN
  INSERT INTO directory_versions(company_id, version) VALUES (old.company_id, 1)
  ON CONFLICT DO UPDATE SET version = version + 1;
END;
