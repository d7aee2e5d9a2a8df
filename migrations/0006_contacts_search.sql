CREATE TABLE `contact_counts` (
	`company_id` integer PRIMARY KEY NOT NULL,
	`count` integer DEFAULT 0 NOT NULL,
	`version` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- contact_counts: contacts per company, and a version that changes with every insert, delete, rename or new
-- number, so a search's count may be kept until the company's contacts change.
-- Contact search scoped to a company: a contentless trigram index whose rowid is company_id << 32 | contact id,
-- so one company's hits are a rowid range and counting them never visits the contacts table. `shown` is the
-- number as a reader without isTricked sees it (all but its last four digits): such readers search only that.
CREATE VIRTUAL TABLE `contacts_search` USING fts5(name, number, shown, content='', contentless_delete=1, tokenize='trigram remove_diacritics 1');
--> statement-breakpoint
INSERT INTO contacts_search(rowid, name, number, shown)
  SELECT (company_id << 32) | id, name, coalesce(number, ''),
         substr(coalesce(number, ''), 1, max(length(coalesce(number, '')) - 4, 0))
    FROM contacts;
--> statement-breakpoint
INSERT INTO contact_counts(company_id, count) SELECT company_id, count(*) FROM contacts GROUP BY company_id;
--> statement-breakpoint
CREATE TRIGGER `contacts_search_insert` AFTER INSERT ON `contacts` BEGIN
  INSERT INTO contacts_search(rowid, name, number, shown)
  VALUES ((new.company_id << 32) | new.id, new.name, coalesce(new.number, ''),
          substr(coalesce(new.number, ''), 1, max(length(coalesce(new.number, '')) - 4, 0)));
  INSERT INTO contact_counts(company_id, count, version) VALUES (new.company_id, 1, 1)
  ON CONFLICT DO UPDATE SET count = count + 1, version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `contacts_search_delete` AFTER DELETE ON `contacts` BEGIN
  DELETE FROM contacts_search WHERE rowid = (old.company_id << 32) | old.id;
  UPDATE contact_counts SET count = count - 1, version = version + 1 WHERE company_id = old.company_id;
END;
--> statement-breakpoint
CREATE TRIGGER `contacts_search_update` AFTER UPDATE OF `name`, `number`, `company_id` ON `contacts` BEGIN
  DELETE FROM contacts_search WHERE rowid = (old.company_id << 32) | old.id;
  INSERT INTO contacts_search(rowid, name, number, shown)
  VALUES ((new.company_id << 32) | new.id, new.name, coalesce(new.number, ''),
          substr(coalesce(new.number, ''), 1, max(length(coalesce(new.number, '')) - 4, 0)));
  UPDATE contact_counts SET version = version + 1 WHERE company_id IN (old.company_id, new.company_id);
END;
