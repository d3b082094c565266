import Foundation
import SQLKit

/// The schema, as numbered steps. A database records the last step it ran and runs the rest at start,
/// each in its own transaction; steps are never edited once released, only added.
enum Migrations {
    static let steps: [[String]] = [
        [
            """
            CREATE TABLE accounts (
                id TEXT PRIMARY KEY,
                username TEXT NOT NULL,
                username_key TEXT NOT NULL UNIQUE,
                password_hash TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL
            )
            """,
            """
            CREATE TABLE sessions (
                token_hash TEXT PRIMARY KEY,
                account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                expires_at DOUBLE PRECISION NOT NULL
            )
            """,
            "CREATE INDEX sessions_by_account ON sessions(account_id)",
            """
            CREATE TABLE projects (
                id TEXT PRIMARY KEY,
                slug TEXT NOT NULL UNIQUE,
                name TEXT NOT NULL,
                visibility TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL,
                trashed_at DOUBLE PRECISION
            )
            """,
            """
            CREATE TABLE members (
                project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
                account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
                role TEXT NOT NULL,
                PRIMARY KEY (project_id, account_id)
            )
            """,
            "CREATE INDEX members_by_account ON members(account_id)",
            """
            CREATE TABLE spec_versions (
                project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
                name TEXT NOT NULL,
                version INTEGER NOT NULL,
                content_hash TEXT NOT NULL,
                media_type TEXT NOT NULL,
                body BLOB NOT NULL,
                author_id TEXT REFERENCES accounts(id) ON DELETE SET NULL,
                created_at DOUBLE PRECISION NOT NULL,
                PRIMARY KEY (project_id, name, version)
            )
            """,
        ],
        [
            // The project frame (ReforestAR's geographic origin), all four or none.
            "ALTER TABLE projects ADD COLUMN latitude DOUBLE PRECISION",
            "ALTER TABLE projects ADD COLUMN longitude DOUBLE PRECISION",
            "ALTER TABLE projects ADD COLUMN altitude DOUBLE PRECISION",
            "ALTER TABLE projects ADD COLUMN heading DOUBLE PRECISION",
            "CREATE INDEX projects_by_trash ON projects(trashed_at)",
        ],
        [
            """
            CREATE TABLE areas (
                id TEXT PRIMARY KEY,
                project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
                name TEXT NOT NULL,
                area BLOB NOT NULL,
                exclusions BLOB,
                square_metres DOUBLE PRECISION NOT NULL,
                created_at DOUBLE PRECISION NOT NULL
            )
            """,
            "CREATE INDEX areas_by_project ON areas(project_id)",
            """
            CREATE TABLE plans (
                id TEXT PRIMARY KEY,
                project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
                area_id TEXT NOT NULL REFERENCES areas(id) ON DELETE CASCADE,
                summary TEXT NOT NULL,
                geojson BLOB NOT NULL,
                created_at DOUBLE PRECISION NOT NULL
            )
            """,
            "CREATE INDEX plans_by_project ON plans(project_id)",
            """
            CREATE TABLE trees (
                id TEXT PRIMARY KEY,
                project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
                species TEXT NOT NULL,
                spacing DOUBLE PRECISION NOT NULL,
                x DOUBLE PRECISION NOT NULL,
                y DOUBLE PRECISION NOT NULL,
                z DOUBLE PRECISION NOT NULL,
                planted_by TEXT REFERENCES accounts(id) ON DELETE SET NULL,
                planted_at DOUBLE PRECISION NOT NULL,
                client_id TEXT,
                UNIQUE (project_id, client_id)
            )
            """,
            "CREATE INDEX trees_by_position ON trees(project_id, x)",
            """
            CREATE TABLE anchors (
                id TEXT PRIMARY KEY,
                project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
                session TEXT,
                pose TEXT NOT NULL,
                payload BLOB,
                created_at DOUBLE PRECISION NOT NULL,
                expires_at DOUBLE PRECISION NOT NULL
            )
            """,
            "CREATE INDEX anchors_by_session ON anchors(project_id, session, created_at)",
            "CREATE INDEX anchors_by_expiry ON anchors(expires_at)",
        ],
        [
            // The event log the live streams follow (issue 12), and what rooms and live data keep.
            """
            CREATE TABLE events (
                seq INTEGER PRIMARY KEY AUTOINCREMENT,
                project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
                kind TEXT NOT NULL,
                subject TEXT NOT NULL,
                detail TEXT,
                created_at DOUBLE PRECISION NOT NULL
            )
            """,
            "CREATE INDEX events_by_project ON events(project_id, seq)",
            "CREATE INDEX events_by_time ON events(created_at)",
            """
            CREATE TABLE annotations (
                id TEXT PRIMARY KEY,
                project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
                room TEXT NOT NULL,
                x DOUBLE PRECISION NOT NULL,
                y DOUBLE PRECISION NOT NULL,
                z DOUBLE PRECISION NOT NULL,
                text TEXT,
                frame BIGINT,
                author_id TEXT REFERENCES accounts(id) ON DELETE SET NULL,
                created_at DOUBLE PRECISION NOT NULL,
                client_id TEXT,
                UNIQUE (project_id, client_id)
            )
            """,
            "CREATE INDEX annotations_by_room ON annotations(project_id, room, created_at)",
            """
            CREATE TABLE dataset_rows (
                seq INTEGER PRIMARY KEY AUTOINCREMENT,
                project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
                dataset TEXT NOT NULL,
                row TEXT NOT NULL,
                created_at DOUBLE PRECISION NOT NULL
            )
            """,
            "CREATE INDEX dataset_rows_by_name ON dataset_rows(project_id, dataset, seq)",
        ],
        [
            // The gallery of 3D assets (issue 13): files kept under the data directory by content hash,
            // what was read from them kept here as the JSON the server made.
            """
            CREATE TABLE assets (
                id TEXT PRIMARY KEY,
                project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
                name TEXT NOT NULL,
                format TEXT NOT NULL,
                content_hash TEXT NOT NULL,
                size BIGINT NOT NULL,
                status TEXT NOT NULL,
                summary TEXT,
                failure TEXT,
                uploader_id TEXT REFERENCES accounts(id) ON DELETE SET NULL,
                created_at DOUBLE PRECISION NOT NULL,
                trashed_at DOUBLE PRECISION
            )
            """,
            "CREATE INDEX assets_by_project ON assets(project_id, trashed_at)",
            "CREATE INDEX assets_by_hash ON assets(content_hash)",
        ],
        [
            // Issue 25: how often processing an asset started, so one that took the server down is
            // not taken up again forever; and the server's own secrets (shared by every instance).
            "ALTER TABLE assets ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0",
            "CREATE TABLE server_secrets (name TEXT PRIMARY KEY, secret TEXT NOT NULL)",
        ],
        [
            // Issue 27: short-lived links an owner gives a device to share its view in one room
            // (the token's hash only, as for sessions).
            """
            CREATE TABLE room_links (
                token_hash TEXT PRIMARY KEY,
                project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
                room TEXT NOT NULL,
                spec TEXT,
                creator_id TEXT REFERENCES accounts(id) ON DELETE SET NULL,
                expires_at DOUBLE PRECISION NOT NULL
            )
            """,
            "CREATE INDEX room_links_by_project ON room_links(project_id)",
        ],
        [
            // Issue 27: an id per room link, so an owner can list links and withdraw one (the links
            // made before it are named by the start of their token's hash, in a UUID's shape, which
            // tells nothing of the token).
            "ALTER TABLE room_links ADD COLUMN id TEXT",
            """
            UPDATE room_links SET id = substr(token_hash, 1, 8) || '-' || substr(token_hash, 9, 4) || '-'
                || substr(token_hash, 13, 4) || '-' || substr(token_hash, 17, 4) || '-' || substr(token_hash, 21, 12)
            """,
            "CREATE UNIQUE INDEX room_links_by_id ON room_links(project_id, id)",
        ],
        [
            // Issue 31: the W3C traceparent of the request that recorded an event, so the fan-out on
            // every instance continues its trace.
            "ALTER TABLE events ADD COLUMN trace_parent TEXT"
        ],
        [
            // Issue 53: trees planted in AR stand at a scale and a turn, in a tap group, from a
            // device session (undo takes back a group; a session's trees go together).
            "ALTER TABLE trees ADD COLUMN scale DOUBLE PRECISION NOT NULL DEFAULT 1",
            "ALTER TABLE trees ADD COLUMN yaw DOUBLE PRECISION NOT NULL DEFAULT 0",
            "ALTER TABLE trees ADD COLUMN group_id TEXT",
            "ALTER TABLE trees ADD COLUMN session TEXT",
            "CREATE INDEX trees_by_group ON trees(project_id, group_id)",
            "CREATE INDEX trees_by_session ON trees(project_id, session)",
        ],
        [
            // Issue 54: the cap on the anchors one device session keeps is the project's setting.
            "ALTER TABLE projects ADD COLUMN anchors_per_session INTEGER NOT NULL DEFAULT 100"
        ],
    ]

    /// The PostgreSQL functions the store calls, defined again at every start: they are code, not
    /// schema. Each name carries a version, so an instance of an older release still running beside
    /// a newer one keeps calling the definition it knows; a changed function gets a new name.
    static let postgresFunctions: [String] = [
        // Issue 31: a batch of annotations placed in one statement, so one round trip to the database
        // instead of nine (under the pose load each waits for a core). The rules are those of
        // `Store.write(_:)` on SQLite, in the same order, and the same tests run on both engines:
        // a retry (a client id already placed) gets the stored annotation; a room holding
        // `p_room_limit` refuses; else the annotation and its event are written, the event log under
        // its lock, and one notification goes out when the statement commits.
        """
        CREATE OR REPLACE FUNCTION arvis_place_annotations_1(
            p_project TEXT, p_batch JSONB, p_room_limit BIGINT, p_kind TEXT, p_created_at DOUBLE PRECISION,
            p_trace_parent TEXT, p_channel TEXT
        ) RETURNS TABLE (
            o_status TEXT, o_seq BIGINT, o_id TEXT, o_room TEXT, o_x DOUBLE PRECISION, o_y DOUBLE PRECISION,
            o_z DOUBLE PRECISION, o_text TEXT, o_frame BIGINT, o_username TEXT, o_created_at DOUBLE PRECISION,
            o_client_id TEXT
        ) LANGUAGE plpgsql AS $$
        DECLARE
            item JSONB;
            held BIGINT;
            last_seq BIGINT;
        BEGIN
            PERFORM pg_advisory_xact_lock(hashtext('annotations:' || p_project));
            FOR item IN SELECT value FROM jsonb_array_elements(p_batch) WITH ORDINALITY ORDER BY ordinality LOOP
                SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
                  INTO o_status, o_seq, o_id, o_room, o_x, o_y, o_z, o_text, o_frame, o_username, o_created_at, o_client_id;
                IF item->>'clientID' IS NOT NULL THEN
                    SELECT 'earlier', a.id, a.room, a.x, a.y, a.z, a.text, a.frame, accounts.username, a.created_at, a.client_id
                      INTO o_status, o_id, o_room, o_x, o_y, o_z, o_text, o_frame, o_username, o_created_at, o_client_id
                      FROM annotations a LEFT JOIN accounts ON accounts.id = a.author_id
                     WHERE a.project_id = p_project AND a.client_id = item->>'clientID';
                    IF FOUND THEN
                        RETURN NEXT;
                        CONTINUE;
                    END IF;
                END IF;
                SELECT COUNT(*) INTO held FROM annotations a WHERE a.project_id = p_project AND a.room = item->>'room';
                IF held >= p_room_limit THEN
                    o_status := 'full';
                    RETURN NEXT;
                    CONTINUE;
                END IF;
                INSERT INTO annotations (id, project_id, room, x, y, z, text, frame, author_id, created_at, client_id)
                VALUES (item->>'id', p_project, item->>'room', (item->>'x')::DOUBLE PRECISION,
                        (item->>'y')::DOUBLE PRECISION, (item->>'z')::DOUBLE PRECISION, item->>'text',
                        (item->>'frame')::BIGINT, item->>'authorID', (item->>'createdAt')::DOUBLE PRECISION,
                        item->>'clientID');
                IF last_seq IS NULL THEN
                    PERFORM pg_advisory_xact_lock(hashtext('arvis-events'));
                END IF;
                INSERT INTO events (project_id, kind, subject, detail, created_at, trace_parent)
                VALUES (p_project, p_kind, item->>'id', item->>'room', p_created_at, p_trace_parent)
                RETURNING events.seq INTO last_seq;
                o_status := 'created';
                o_seq := last_seq;
                RETURN NEXT;
            END LOOP;
            IF last_seq IS NOT NULL THEN
                PERFORM pg_notify(p_channel, last_seq::TEXT);
            END IF;
        END;
        $$
        """
    ]

    /// Runs the steps the database has not run yet, and on PostgreSQL defines ``postgresFunctions``.
    /// On PostgreSQL a session lock keeps two server instances starting at once from running a step
    /// twice, and `BLOB` columns are `BYTEA`.
    static func run(on database: any SQLDatabase, engine: Store.Engine) async throws {
        let lock: SQLQueryString = "SELECT pg_advisory_lock(hashtext('arvis-migrations'))"
        if engine == .postgres { try await database.raw(lock).run() }
        do {
            try await runSteps(on: database, engine: engine)
            if engine == .postgres {
                for function in postgresFunctions { try await database.raw(SQLQueryString(function)).run() }
            }
        } catch {
            if engine == .postgres {
                try? await database.raw("SELECT pg_advisory_unlock(hashtext('arvis-migrations'))").run()
            }
            throw error
        }
        if engine == .postgres {
            try await database.raw("SELECT pg_advisory_unlock(hashtext('arvis-migrations'))").run()
        }
    }

    /// A step's statement in PostgreSQL's dialect: `BYTEA` for `BLOB`, `BIGSERIAL` keys for SQLite's
    /// increasing integer keys.
    private static func postgres(_ statement: String) -> String {
        statement.replacingOccurrences(of: " BLOB", with: " BYTEA")
            .replacingOccurrences(of: "INTEGER PRIMARY KEY AUTOINCREMENT", with: "BIGSERIAL PRIMARY KEY")
    }

    private static func runSteps(on database: any SQLDatabase, engine: Store.Engine) async throws {
        try await database.raw("CREATE TABLE IF NOT EXISTS arvis_schema (step INTEGER NOT NULL)").run()
        let done =
            try await database.raw("SELECT COALESCE(MAX(step), 0) AS step FROM arvis_schema").first(
                decodingColumn: "step", as: Int.self) ?? 0
        for (index, statements) in steps.enumerated() where index + 1 > done {
            try await database.raw(engine == .sqlite ? "BEGIN IMMEDIATE" : "BEGIN").run()
            do {
                for statement in statements {
                    let text = engine == .postgres ? postgres(statement) : statement
                    try await database.raw(SQLQueryString(text)).run()
                }
                try await database.raw("INSERT INTO arvis_schema (step) VALUES (\(bind: index + 1))").run()
                try await database.raw("COMMIT").run()
            } catch {
                try? await database.raw("ROLLBACK").run()
                throw error
            }
        }
    }
}
