-- Made by tests/data/make_pre_migrations_db.py from commit 9c7e156.
BEGIN TRANSACTION;
CREATE TABLE "account" (
    "id" INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    "name" VARCHAR(32) NOT NULL,
    "name_key" VARCHAR(32) NOT NULL UNIQUE,
    "password_hash" VARCHAR(255),
    "role" VARCHAR(16) NOT NULL,
    "lang" VARCHAR(4) NOT NULL,
    "encoding" VARCHAR(16),
    "color" INT,
    "autopass" VARCHAR(8),
    "created_at" TIMESTAMP NOT NULL,
    "last_login" TIMESTAMP,
    "muted_until" TIMESTAMP
);
INSERT INTO "account" VALUES(1,'Анна','ahha','$argon2id$v=19$m=19456,t=2,p=1$bjbIYvgFJZW+BFWPczIZqQ$RItFa4e4qLxuT+bX+wp76XVUV97+2AChk56q29rxIlQ','player','ru','utf-8',NULL,NULL,'2026-12-01 17:24:18.244347+00:00','2026-12-01 17:24:18.287857+00:00',NULL);
INSERT INTO "account" VALUES(2,'Борис','бopиc','$argon2id$v=19$m=19456,t=2,p=1$CkfljxR+Ib+2NQa6YARf7A$0HP3nP69T2KlcJtzseExk9XJ3tEdarHbO28Ii4o/lpA','player','ru','utf-8',NULL,NULL,'2026-12-01 17:24:18.784784+00:00','2026-12-01 17:24:18.809187+00:00',NULL);
CREATE TABLE "action_log" (
    "id" INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    "step" INT NOT NULL,
    "seat" INT NOT NULL,
    "action" JSON NOT NULL,
    "by" VARCHAR(16) NOT NULL,
    "created_at" TIMESTAMP NOT NULL,
    "table_id" INT NOT NULL REFERENCES "game_table" ("id") ON DELETE CASCADE,
    CONSTRAINT "uid_action_log_table_i_a2edc8" UNIQUE ("table_id", "step")
);
INSERT INTO "action_log" VALUES(1,1,0,'{"type":"bid","card":4}','player','2026-12-01 17:24:19.976845+00:00',1);
INSERT INTO "action_log" VALUES(2,2,1,'{"type":"bid","card":2}','player','2026-12-01 17:24:20.084136+00:00',1);
INSERT INTO "action_log" VALUES(3,3,0,'{"type":"bid","card":11}','player','2026-12-01 17:24:20.232301+00:00',1);
CREATE TABLE "ban" (
    "id" INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    "name_key" VARCHAR(32),
    "address" VARCHAR(64),
    "until" TIMESTAMP,
    "by" VARCHAR(32) NOT NULL,
    "created_at" TIMESTAMP NOT NULL
);
CREATE TABLE "game_table" (
    "id" INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    "game" VARCHAR(32) NOT NULL,
    "options" JSON NOT NULL,
    "seed" BIGINT NOT NULL,
    "host" VARCHAR(32) NOT NULL,
    "state" VARCHAR(16) NOT NULL,
    "seats_total" INT NOT NULL,
    "deadline_at" TIMESTAMP,
    "deadline_step" INT,
    "paused_seconds" REAL,
    "master" VARCHAR(32),
    "outcome" JSON,
    "previous" INT,
    "created_at" TIMESTAMP NOT NULL,
    "started_at" TIMESTAMP,
    "finished_at" TIMESTAMP
);
INSERT INTO "game_table" VALUES(1,'bids','{"rounds":3,"seconds":600}',1858726008175534211,'Анна','running',2,'2026-12-01 17:34:20.064814+00:00',3,NULL,NULL,NULL,NULL,'2026-12-01 17:24:19.705434+00:00','2026-12-01 17:24:19.865141+00:00',NULL);
CREATE TABLE "inbox_item" (
    "id" INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    "kind" VARCHAR(16) NOT NULL,
    "key" VARCHAR(128) NOT NULL,
    "params" JSON NOT NULL,
    "table_id" INT,
    "created_at" TIMESTAMP NOT NULL,
    "delivered" INT NOT NULL,
    "account_id" INT NOT NULL REFERENCES "account" ("id") ON DELETE CASCADE
);
CREATE TABLE "seat" (
    "id" INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    "number" INT NOT NULL,
    "bot_level" VARCHAR(16),
    "name" VARCHAR(32) NOT NULL,
    "account_id" INT REFERENCES "account" ("id") ON DELETE SET NULL,
    "table_id" INT NOT NULL REFERENCES "game_table" ("id") ON DELETE CASCADE,
    CONSTRAINT "uid_seat_table_i_ee6344" UNIQUE ("table_id", "number")
);
INSERT INTO "seat" VALUES(1,0,NULL,'Анна',1,1);
INSERT INTO "seat" VALUES(2,1,NULL,'Борис',2,1);
CREATE TABLE "ssh_key" (
    "id" INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    "algorithm" VARCHAR(64) NOT NULL,
    "key_data" TEXT NOT NULL,
    "comment" VARCHAR(255) NOT NULL,
    "fingerprint" VARCHAR(128) NOT NULL,
    "created_at" TIMESTAMP NOT NULL,
    "account_id" INT NOT NULL REFERENCES "account" ("id") ON DELETE CASCADE
);
DELETE FROM "sqlite_sequence";
INSERT INTO "sqlite_sequence" VALUES('account',2);
INSERT INTO "sqlite_sequence" VALUES('game_table',1);
INSERT INTO "sqlite_sequence" VALUES('seat',2);
INSERT INTO "sqlite_sequence" VALUES('action_log',3);
COMMIT;
