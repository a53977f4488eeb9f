package io.gpumeter.slo.repository;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * SLOs and jitter events stored before services belonged to a namespace stay readable: each service SLO takes the
 * namespace that reported its service where exactly one did, each event the namespace of its evidence's pods where they
 * share one; the rest keep a null namespace (legacy).
 */
class ServicesInNamespacesMigrationTest {

    private static EmbeddedPostgres postgres;
    private static DataSource db;

    @BeforeAll
    static void start() throws IOException {
        postgres = EmbeddedPostgres.builder().start();
        db = postgres.getPostgresDatabase();
    }

    @AfterAll
    static void stop() throws IOException {
        postgres.close();
    }

    private static Flyway flyway(String target) {
        return Flyway.configure().dataSource(db).schemas("slo").defaultSchema("slo")
                .locations("classpath:db/migration").target(target).load();
    }

    private static List<String> column(Statement sql, String query) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rows = sql.executeQuery(query)) {
            while (rows.next()) {
                out.add(rows.getString(1));
            }
        }
        return out;
    }

    private static String slo(String name, String service, String tenant) {
        return "('" + name + "', " + (service == null ? "NULL" : "'" + service + "'") + ", "
                + (tenant == null ? "NULL" : "'" + tenant + "'") + ", 'TTFT', 99, 300, 'MINUTE', 0.99, 'P30D',"
                + " '2026-05-01T00:00:00Z', '2026-05-01T00:00:00Z')";
    }

    private static String event(String slo, String start, String pods) {
        return "('" + slo + "', 'chat', 'TTFT', '" + start + "', '" + start + "'::timestamptz + interval '2 minutes', 2,"
                + " 900, 300, 2, '{\"pods\": " + pods + ", \"suspects\": []}', now(), now())";
    }

    @Test
    void serviceSlosAndJitterEventsTakeTheNamespaceTheirStoredMinutesShow() throws SQLException {
        flyway("9").migrate();
        try (Connection conn = db.getConnection(); Statement sql = conn.createStatement()) {
            sql.execute("""
                    INSERT INTO slo.request_minute (service, namespace, pod, minute, requests, failed) VALUES
                      ('chat', 'ml', 'chat-0', '2026-05-01T10:00:00Z', 5, 0),
                      ('chat', 'ml', 'chat-1', '2026-05-01T10:01:00Z', 5, 0),
                      ('ask', 'acme-ml', 'ask-0', '2026-05-01T10:00:00Z', 5, 0),
                      ('ask', 'beta-ml', 'ask-b0', '2026-05-01T10:00:00Z', 5, 1)""");
            sql.execute("INSERT INTO slo.slo_definition (name, service, tenant, sli, objective_percentile,"
                    + " objective_threshold_ms, objective_per, target, slo_window, created_at, updated_at) VALUES "
                    + String.join(", ", slo("chat-ttft", "chat", null), slo("ask-all", "ask", null),
                    slo("quiet-ttft", "quiet", null), slo("acme-chat", "chat", "acme")));
            sql.execute("INSERT INTO slo.jitter_event (slo, service, sli, started_at, ended_at, bad_minutes,"
                    + " peak_p99_ms, threshold_ms, factor, evidence, detected_at, updated_at) VALUES "
                    + String.join(", ",
                    event("chat-ttft", "2026-05-01T10:00:00Z",
                            "[{\"namespace\": \"ml\", \"pod\": \"chat-0\"}, {\"namespace\": \"ml\", \"pod\": \"chat-1\"}]"),
                    event("chat-ttft", "2026-05-01T11:00:00Z",
                            "[{\"namespace\": \"ml\", \"pod\": \"chat-0\"}, {\"namespace\": \"a-ns\", \"pod\": \"chat-x\"}]"),
                    event("chat-ttft", "2026-05-01T12:00:00Z", "[]")));

            flyway("latest").migrate();

            assertEquals(List.of("acme-chat|", "ask-all|", "chat-ttft|ml", "quiet-ttft|"), column(sql,
                    "SELECT name || '|' || coalesce(namespace, '') FROM slo.slo_definition ORDER BY name"));
            assertEquals(List.of("10|ml", "11|", "12|"), column(sql, "SELECT extract(hour FROM started_at AT TIME ZONE"
                    + " 'UTC') || '|' || coalesce(namespace, '') FROM slo.jitter_event ORDER BY started_at"));
            // a service selector may now name its namespace
            sql.execute("INSERT INTO slo.slo_definition (name, service, namespace, sli, objective_percentile,"
                    + " objective_threshold_ms, objective_per, target, slo_window, created_at, updated_at) VALUES"
                    + " ('b-chat', 'chat', 'b-ns', 'TTFT', 99, 300, 'MINUTE', 0.99, 'P30D', now(), now())");
        }
    }
}
