package io.gpumeter.launcher.cli;

import io.gpumeter.launcher.db.DatabaseConnection;
import io.gpumeter.launcher.suite.Service;
import io.gpumeter.launcher.suite.SuiteConfig;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How {@code ./gpumeter up}'s options shape the suite before anything starts, and which it refuses. */
class UpCommandTest {

    @TempDir
    Path root;

    @BeforeEach
    void looksLikeTheRepository() throws IOException {
        Files.writeString(root.resolve("pom.xml"), "<project/>");
        Files.createDirectories(root.resolve("ledger-service"));
    }

    private UpCommand parse(Map<String, String> env, String... args) {
        PrintStream sink = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        return Cli.commandLine(env, sink, sink)
                .parseArgs(Run.concat(new String[] {"up", "--root", root.toString()}, args))
                .subcommand().commandSpec().commandLine().getCommand();
    }

    private SuiteConfig config(String... args) {
        return parse(Map.of(), args).suiteBuilder().config();
    }

    /** The options that matter, in one line a table can hold. */
    private String summary(SuiteConfig c) {
        DatabaseConnection db = c.externalDatabase();
        String database = db != null
                ? "external " + db.jdbcUrl() + " as " + db.user() + " password "
                  + (db.password().isEmpty() ? "none" : db.password())
                : "embedded " + root.relativize(c.dataDirectory()).toString().replace('\\', '/')
                  + (c.freshDatabase() ? " fresh" : "") + " port " + c.databasePort();
        return "listen " + c.listenAddress() + ", ports " + c.ports().get(Service.COLLECTOR) + "-"
                + c.ports().get(Service.BILLING) + " and " + c.managementPorts().get(Service.COLLECTOR) + "-"
                + c.managementPorts().get(Service.BILLING) + ", console " + c.ports().get(Service.CONSOLE) + " and "
                + c.managementPorts().get(Service.CONSOLE) + ", " + database + ", ready in "
                + c.readyTimeout().toSeconds() + "s";
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "defaults                | ''                                  | listen 127.0.0.1, ports 8081-8085 and 9081-9085, console 8086 and 9086, embedded .gpumeter/pgdata port 0, ready in 120s",
            "demo's own database     | --demo                              | listen 127.0.0.1, ports 8081-8085 and 9081-9085, console 8086 and 9086, embedded .gpumeter/demo/pgdata fresh port 0, ready in 120s",
            "fresh                   | --fresh                             | listen 127.0.0.1, ports 8081-8085 and 9081-9085, console 8086 and 9086, embedded .gpumeter/pgdata fresh port 0, ready in 120s",
            "every interface         | --listen 0.0.0.0                    | listen 0.0.0.0, ports 8081-8085 and 9081-9085, console 8086 and 9086, embedded .gpumeter/pgdata port 0, ready in 120s",
            "equals form             | --listen=::1                        | listen ::1, ports 8081-8085 and 9081-9085, console 8086 and 9086, embedded .gpumeter/pgdata port 0, ready in 120s",
            "base port               | --base-port 9000 --listen 10.0.0.2  | listen 10.0.0.2, ports 9001-9005 and 10001-10005, console 9006 and 10006, embedded .gpumeter/pgdata port 0, ready in 120s",
            "highest base port       | --base-port 64529                   | listen 127.0.0.1, ports 64530-64534 and 65530-65534, console 64535 and 65535, embedded .gpumeter/pgdata port 0, ready in 120s",
            "data dir and port       | --data-dir pg --db-port 5433        | listen 127.0.0.1, ports 8081-8085 and 9081-9085, console 8086 and 9086, embedded pg port 5433, ready in 120s",
            "timeout                 | --timeout 300                       | listen 127.0.0.1, ports 8081-8085 and 9081-9085, console 8086 and 9086, embedded .gpumeter/pgdata port 0, ready in 300s",
            "external, default user  | --db-url jdbc:postgresql://db:5432/m | listen 127.0.0.1, ports 8081-8085 and 9081-9085, console 8086 and 9086, external jdbc:postgresql://db:5432/m as postgres password none, ready in 120s",
            "external with a user    | --db-url jdbc:postgresql://db/m --db-user meter | listen 127.0.0.1, ports 8081-8085 and 9081-9085, console 8086 and 9086, external jdbc:postgresql://db/m as meter password none, ready in 120s",
            "demo options, script's  | --seed 7 --end 2026-11-30T12:00:00Z --cluster lab --log-dir logs --build | listen 127.0.0.1, ports 8081-8085 and 9081-9085, console 8086 and 9086, embedded .gpumeter/pgdata port 0, ready in 120s",
    })
    void accepts(String name, String line, String expected) {
        String[] args = Run.words(line);
        // a data directory is named relative to the repository, as the summary shows it
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--data-dir")) {
                args[i + 1] = root.resolve(args[i + 1]).toString();
            }
        }
        assertEquals(expected, summary(config(args)));
    }

    @Test
    void upRunsTheConsoleAndTheMcpServerAfterTheFiveServices() {
        assertEquals(List.of(Service.COLLECTOR, Service.LEDGER, Service.SLO, Service.ALERT, Service.BILLING, Service.CONSOLE,
                        Service.MCP),
                List.copyOf(config().services()));
    }

    @Test
    void theDemoHistoryAndTheClusterNameAreRead() {
        UpCommand up = parse(Map.of(), "--demo", "--seed", "7", "--end", "2026-11-30T12:00:00Z", "--cluster", "lab");
        assertEquals(7, up.seed);
        assertEquals("2026-11-30T12:00:00Z", up.end.toString());
        assertEquals("lab", up.suiteBuilder().config().env().get(Service.COLLECTOR).get("GPUMETER_COLLECTOR_CLUSTER"));
        assertEquals(42, parse(Map.of()).seed);
    }

    @Test
    void theExternalDatabaseComesFromTheEnvironmentUnlessOptionsSayOtherwise() throws IOException {
        Map<String, String> env = Map.of("GPUMETER_DB_URL", "jdbc:postgresql://env:5432/m", "GPUMETER_DB_USER", "envuser",
                "GPUMETER_DB_PASSWORD", "from-env");
        assertEquals(new DatabaseConnection("jdbc:postgresql://env:5432/m", "envuser", "from-env"),
                parse(env).externalDatabase().orElseThrow());
        Path file = Files.writeString(root.resolve("db-password"), "from file\nsecond line ignored\n");
        assertEquals(new DatabaseConnection("jdbc:postgresql://opt/m", "meter", "from file"),
                parse(env, "--db-url", "jdbc:postgresql://opt/m", "--db-user", "meter", "--db-password-file",
                        file.toString()).externalDatabase().orElseThrow());
        assertTrue(parse(Map.of("GPUMETER_DB_PASSWORD", "unused")).externalDatabase().isEmpty());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "unknown option          | --colour red                   | unknown option '--colour'",
            "flag given a value      | --demo=yes                     | --demo",
            "option without value    | --seed                         | Missing required parameter for option '--seed'",
            "bare word               | now                            | unexpected argument 'now'",
            "seed not a number       | --demo --seed x                | Invalid value for option '--seed': must be a whole number, got 'x'",
            "end not RFC 3339        | --end 2026-11-30               | Invalid value for option '--end': must be an RFC 3339 instant",
            "port out of range       | --db-port 70000                | Invalid value for option '--db-port': must be between 0 and 65535, got 70000",
            "base port too high      | --base-port 65000              | Invalid value for option '--base-port': must be between 0 and 64529",
            "no timeout              | --timeout 0                    | Invalid value for option '--timeout': must be at least 1",
            "listen with no value    | --listen                       | Missing required parameter for option '--listen'",
            "listen not an address   | --listen a/b                   | --listen: the listen address must be an IP address or a host name",
            "not a PostgreSQL URL    | --db-url mysql://db/m          | --db-url: database URL must start with jdbc:postgresql://",
            "password file missing   | --db-url jdbc:postgresql://db/m --db-password-file no-such-file | --db-password-file: cannot read",
            "password given inline   | --db-password=hunter2          | --db-password is not accepted",
            "password given spaced   | --db-password hunter2 --demo   | Set GPUMETER_DB_PASSWORD or pass --db-password-file FILE",
            "password without value  | --db-password                  | --db-password is not accepted",
    })
    void refuses(String name, String line, String message) {
        Run run = Run.of(Run.concat(new String[] {"up", "--root", root.toString()}, Run.words(line)));
        assertEquals(2, run.exitCode(), run.toString());
        assertTrue(run.err().contains(message), run.toString());
        assertTrue(run.err().strip().endsWith("See './gpumeter up --help'."), run.toString());
        assertEquals(2, run.err().strip().lines().count(), run.toString());
        assertFalse(run.err().contains("hunter2"), "the refusal repeats no password: " + run);
        assertEquals("", run.out(), "nothing started");
    }

    @Test
    void aDirectoryThatIsNotTheRepositoryIsRefusedBeforeAnythingStarts() {
        Run run = Run.of("up", "--root", root.resolve("ledger-service").toString());
        assertEquals(2, run.exitCode(), run.toString());
        assertTrue(run.err().contains("is not the gpumeter repository: run from its root, or pass --root"), run.toString());
    }

    @Test
    void anEmptyPasswordFileIsRefused() throws IOException {
        Path empty = Files.writeString(root.resolve("empty"), "\n");
        UsageException e = assertThrows(UsageException.class, () -> parse(Map.of(), "--db-url", "jdbc:postgresql://db/m",
                "--db-password-file", empty.toString()).externalDatabase());
        assertTrue(e.getMessage().contains("is empty"), e.getMessage());
    }
}
