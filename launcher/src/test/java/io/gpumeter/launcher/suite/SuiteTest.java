package io.gpumeter.launcher.suite;

import io.gpumeter.launcher.db.DatabaseConnection;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Runs the suite against stand-in service jars, so that process handling is tested without building services. */
class SuiteTest {

    private static final DatabaseConnection NO_DATABASE =
            new DatabaseConnection("jdbc:postgresql://db.invalid:5432/ledger", "meter", "secret");
    private static final EnumSet<Service> TWO = EnumSet.of(Service.COLLECTOR, Service.LEDGER);

    @TempDir
    Path root;

    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeEach
    void fakeServiceJars() throws IOException, URISyntaxException {
        Path classes = Path.of(FakeService.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, FakeService.class.getName());
        manifest.getMainAttributes().put(Attributes.Name.CLASS_PATH, classes.toUri().toString());
        for (Service s : Service.values()) {
            Path jar = s.jar(root);
            Files.createDirectories(jar.getParent());
            try (OutputStream out = Files.newOutputStream(jar); JarOutputStream ignored = new JarOutputStream(out, manifest)) {
                // a manifest-only jar: the classes come from the Class-Path entry
            }
        }
    }

    private SuiteBuilder suite() {
        return Suite.builder(root).services(TWO).freePorts().externalDatabase(NO_DATABASE)
                .readyTimeout(Duration.ofSeconds(60)).stopGrace(Duration.ofSeconds(5));
    }

    @Test
    void startsPassesTheEnvironmentRestartsOneServiceAndStopsEverything() throws Exception {
        Suite suite = suite().env(Service.COLLECTOR, "GPUMETER_COLLECTOR_CLUSTER", "lab").build().start();
        try {
            String env = get(suite.url(Service.COLLECTOR) + "/env");
            assertTrue(env.contains("QUARKUS_HTTP_PORT=" + suite.port(Service.COLLECTOR) + "\n"), env);
            assertTrue(env.contains("QUARKUS_HTTP_HOST=127.0.0.1\n"), "loopback unless told otherwise: " + env);
            assertEquals(URI.create("http://127.0.0.1:" + suite.port(Service.COLLECTOR)), suite.url(Service.COLLECTOR));
            assertTrue(env.contains("QUARKUS_REST_CLIENT_LEDGER_URL=http://127.0.0.1:" + suite.port(Service.LEDGER) + "\n"));
            assertTrue(env.contains("QUARKUS_REST_CLIENT_BILLING_URL=http://127.0.0.1:" + suite.port(Service.BILLING) + "\n"));
            assertTrue(env.contains("QUARKUS_MANAGEMENT_PORT=" + suite.managementPort(Service.COLLECTOR) + "\n"), env);
            assertTrue(suite.managementPort(Service.COLLECTOR) != suite.port(Service.COLLECTOR));
            String ledgerEnv = get(suite.url(Service.LEDGER) + "/env");
            assertTrue(ledgerEnv.contains("QUARKUS_DATASOURCE_JDBC_URL=jdbc:postgresql://db.invalid:5432/ledger\n"));
            assertTrue(ledgerEnv.contains("QUARKUS_DATASOURCE_REACTIVE_URL=postgresql://db.invalid:5432/ledger\n"));
            assertTrue(ledgerEnv.contains("QUARKUS_DATASOURCE_USERNAME=meter\n"));
            assertTrue(ledgerEnv.contains("QUARKUS_DATASOURCE_PASSWORD=secret\n"));
            assertFalse(env.contains("QUARKUS_DATASOURCE_"), "the collector keeps no database: " + env);
            assertFalse(env.contains("GPUMETER_ALERT_WEBHOOK_TOKEN"), "only alert-service gets the webhook token");
            assertTrue(env.contains("GPUMETER_COLLECTOR_CLUSTER=lab\n"));
            assertFalse(get(suite.url(Service.LEDGER) + "/env").contains("GPUMETER_COLLECTOR_CLUSTER"));
            assertTrue(env.contains("GPUMETER_AUTH_SERVICE_TOKEN=ey"), "the collector calls the ledger and slo");
            assertFalse(get(suite.url(Service.LEDGER) + "/env").contains("GPUMETER_AUTH_SERVICE_TOKEN"),
                    "the ledger calls nobody and gets no token");

            suite.faults().stop(Service.COLLECTOR);
            assertFalse(suite.isRunning(Service.COLLECTOR));
            assertTrue(Ports.isFree(suite.port(Service.COLLECTOR)));
            assertTrue(suite.isRunning(Service.LEDGER));
            suite.faults().start(Service.COLLECTOR);
            assertTrue(get(suite.url(Service.COLLECTOR) + "/env").contains("GPUMETER_COLLECTOR_CLUSTER=lab"));
            String log = Files.readString(suite.logFile(Service.COLLECTOR));
            assertEquals(2, log.lines().filter(l -> l.contains("collector-service starting")).count(), log);
            assertTrue(log.contains("fake service up on port " + suite.port(Service.COLLECTOR)));
            assertTrue(Files.exists(root.resolve(".gpumeter/run/collector.pid")));
        } finally {
            suite.stop();
        }
        assertFalse(suite.isRunning(Service.LEDGER));
        assertTrue(Ports.isFree(suite.port(Service.LEDGER)));
        assertTrue(Ports.isFree(suite.port(Service.COLLECTOR)));
        assertFalse(Files.exists(root.resolve(".gpumeter/run/ledger.pid")));
        assertTrue(Ports.isFree(suite.managementPort(Service.LEDGER)));
    }

    @Test
    void theConsoleStartsAfterTheServicesWithTheirAddressesAOneTimeSignInTheirPublicKeyAndASessionKeyButNoSecretOfTheirs()
            throws Exception {
        assertEquals(Service.apis(), List.copyOf(Suite.builder(root).config().services()), "the five by default");
        Suite suite = suite().services(EnumSet.of(Service.LEDGER)).withConsole().build();
        assertTrue(suite.consoleSigninUrl().isEmpty(), "no link before the console starts");
        suite.start();
        try {
            String env = get(suite.url(Service.CONSOLE) + "/env");
            assertTrue(env.contains("QUARKUS_HTTP_PORT=" + suite.port(Service.CONSOLE) + "\n"), env);
            assertTrue(env.contains("QUARKUS_MANAGEMENT_PORT=" + suite.managementPort(Service.CONSOLE) + "\n"), env);
            assertTrue(env.contains("QUARKUS_HTTP_HOST=127.0.0.1\n"), env);
            for (Service s : Service.apis()) {
                assertTrue(env.contains("GPUMETER_CONSOLE_" + s.name() + "_URL=" + suite.url(s) + "\n"), s + "\n" + env);
            }
            String link = suite.consoleSigninUrl().orElseThrow().toString();
            assertTrue(link.startsWith(suite.url(Service.CONSOLE) + "/signin?code="), link);
            String code = link.substring(link.indexOf("code=") + 5);
            assertTrue(code.length() >= 32 && env.contains("GPUMETER_CONSOLE_SIGNIN_CODE=" + code + "\n"), env);
            assertTrue(env.contains("GPUMETER_CONSOLE_SIGNIN_TOKEN=ey"), "the link signs in with an admin token");
            for (String secret : List.of("QUARKUS_DATASOURCE_PASSWORD", "GPUMETER_AUTH_SERVICE_TOKEN", "GPUMETER_ALERT_WEBHOOK_TOKEN")) {
                assertFalse(env.contains(secret), "the console owns no data and holds no token of its own: " + secret);
            }
            // it verifies a token before signing anyone in, with the key the services verify with
            String ledgerEnv = get(suite.url(Service.LEDGER) + "/env");
            String publicKey = ledgerEnv.substring(ledgerEnv.indexOf("MP_JWT_VERIFY_PUBLICKEY="), ledgerEnv.indexOf("-----END PUBLIC KEY-----"));
            assertTrue(publicKey.contains("-----BEGIN PUBLIC KEY-----") && env.contains(publicKey), env);
            // and seals its sessions with a key of its own, kept beside the others for the next run
            String sessionKey = LocalSecrets.in(root.resolve(".gpumeter")).get(LocalSecrets.CONSOLE_SESSION_KEY);
            assertTrue(sessionKey.length() >= 32 && env.contains("GPUMETER_CONSOLE_SESSION_KEY=" + sessionKey + "\n"), env);
            assertFalse(ledgerEnv.contains("GPUMETER_CONSOLE_SESSION_KEY"), "the console's key is the console's only");
            assertTrue(suite.serviceToken(Service.CONSOLE).isEmpty());
        } finally {
            suite.stop();
        }
        assertTrue(Ports.isFree(suite.port(Service.CONSOLE)));
    }

    @Test
    void eachServiceTokenIsAddressedToTheServicesItCallsAndLivesThirtyDays() throws Exception {
        Suite suite = suite().build();
        var consumer = new org.jose4j.jwt.consumer.JwtConsumerBuilder().setSkipSignatureVerification()
                .setSkipDefaultAudienceValidation().build();
        var alert = consumer.processToClaims(suite.serviceToken(Service.ALERT).orElseThrow());
        assertEquals(List.of("ledger", "slo", "billing"), alert.getAudience());
        assertEquals(List.of("service"), alert.getStringListClaimValue("groups"));
        assertEquals(Duration.ofDays(30).toSeconds(), alert.getExpirationTime().getValue() - alert.getIssuedAt().getValue());
        assertEquals(List.of("ledger", "slo"), consumer.processToClaims(suite.serviceToken(Service.COLLECTOR).orElseThrow()).getAudience());
        assertEquals(List.of("ledger"), consumer.processToClaims(suite.serviceToken(Service.BILLING).orElseThrow()).getAudience());
        // slo-service reads billing's window cost and alert-service's runbook for acceptance runs
        assertEquals(List.of("ledger", "billing", "alert"),
                consumer.processToClaims(suite.serviceToken(Service.SLO).orElseThrow()).getAudience());
        assertTrue(suite.serviceToken(Service.LEDGER).isEmpty());
    }

    @Test
    void killEndsOneServiceAtOnceAndStartBringsItBack() throws Exception {
        Suite suite = suite().stopGrace(Duration.ofSeconds(30)).build().start();
        try {
            long first = suite.pid(Service.COLLECTOR).orElseThrow();
            long t0 = System.nanoTime();
            suite.faults().kill(Service.COLLECTOR);
            assertTrue(System.nanoTime() - t0 < Duration.ofSeconds(10).toNanos(), "no grace period is waited for");
            assertFalse(suite.isRunning(Service.COLLECTOR));
            assertTrue(suite.pid(Service.COLLECTOR).isEmpty());
            assertFalse(ProcessHandle.of(first).map(ProcessHandle::isAlive).orElse(false));
            assertFalse(Files.exists(root.resolve(".gpumeter/run/collector.pid")));
            assertTrue(suite.isRunning(Service.LEDGER));

            suite.faults().start(Service.COLLECTOR);
            assertTrue(suite.isRunning(Service.COLLECTOR));
            assertTrue(suite.pid(Service.COLLECTOR).orElseThrow() != first);
        } finally {
            suite.stop();
        }
    }

    @Test
    void theEmbeddedDatabaseStopsAndComesBackOnItsPortWithItsData() throws Exception {
        Suite suite = Suite.builder(root).services(EnumSet.noneOf(Service.class)).freePorts()
                .embeddedDatabase(root.resolve("pgdata")).freshDatabase(true).shutdownHook(false).build().start();
        try {
            DatabaseConnection db = suite.database().orElseThrow();
            int port = suite.embeddedDatabase().orElseThrow().port();
            execute(db, "CREATE TABLE kept (n int); INSERT INTO kept VALUES (7)");

            suite.faults().stopDatabase();
            assertTrue(suite.embeddedDatabase().isEmpty());
            assertThrows(SQLException.class, () -> execute(db, "SELECT 1"));
            assertThrows(SuiteException.class, suite.faults()::stopDatabase);

            suite.faults().startDatabase();
            assertEquals(port, suite.embeddedDatabase().orElseThrow().port(), "the port the services know");
            try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
                 ResultSet rs = c.createStatement().executeQuery("SELECT n FROM kept")) {
                assertTrue(rs.next());
                assertEquals(7, rs.getInt(1));
            }
            assertThrows(SuiteException.class, suite.faults()::startDatabase);
        } finally {
            suite.stop();
        }
    }

    @Test
    void servicesListenOnTheGivenAddressWhereTheProbeAndUrlsFollow() throws Exception {
        // 127.0.0.2 is loopback too, but a service bound there does not answer on 127.0.0.1.
        Suite suite = suite().services(EnumSet.of(Service.ALERT, Service.LEDGER)).listen("127.0.0.2").build().start();
        try {
            assertEquals(URI.create("http://127.0.0.2:" + suite.port(Service.ALERT)), suite.url(Service.ALERT));
            String env = get(suite.url(Service.ALERT) + "/env");
            assertTrue(env.contains("QUARKUS_HTTP_HOST=127.0.0.2\n"), env);
            assertTrue(env.contains("QUARKUS_REST_CLIENT_LEDGER_URL=http://127.0.0.2:" + suite.port(Service.LEDGER) + "\n"));
            assertThrows(IOException.class, () -> get("http://127.0.0.1:" + suite.port(Service.ALERT) + "/env"),
                    "not bound to 127.0.0.1");
        } finally {
            suite.stop();
        }
    }

    @Test
    void alertServiceGetsAWebhookTokenMadeOnceAndKeptOwnerOnlyAndNoSecretIsOnACommandLine() throws Exception {
        Suite suite = suite().services(EnumSet.of(Service.ALERT, Service.LEDGER)).build().start();
        String token;
        try {
            token = suite.webhookToken();
            assertTrue(token.length() >= 40, "256 random bits: " + token);
            assertTrue(get(suite.url(Service.ALERT) + "/env").contains("GPUMETER_ALERT_WEBHOOK_TOKEN=" + token + "\n"));
            assertFalse(get(suite.url(Service.LEDGER) + "/env").contains("GPUMETER_ALERT_WEBHOOK_TOKEN"));
            for (Service s : List.of(Service.ALERT, Service.LEDGER)) {
                String commandLine = ProcessHandle.of(suite.pid(s).orElseThrow()).orElseThrow().info().commandLine().orElse("");
                assertFalse(commandLine.contains(token) || commandLine.contains("secret"),
                        s.id() + "'s command line, which ps shows to everyone: " + commandLine);
            }
        } finally {
            suite.stop();
        }
        Path file = root.resolve(".gpumeter/keys/webhook-token");
        assertEquals(token, Files.readString(file).strip());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertEquals(token, suite().build().webhookToken(), "the next run keeps it, so Alertmanager's copy stays valid");
    }

    @Test
    void theEmbeddedDatabaseWantsThePasswordKeptWithTheKeysAndTheNextRunReusesIt() throws Exception {
        Suite first = Suite.builder(root).services(EnumSet.noneOf(Service.class)).freePorts()
                .embeddedDatabase(root.resolve("pgdata")).freshDatabase(true).shutdownHook(false).build().start();
        DatabaseConnection db;
        try {
            db = first.database().orElseThrow();
            Path file = root.resolve(".gpumeter/keys/db-password");
            assertEquals(Files.readString(file).strip(), db.password());
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
            execute(db, "CREATE TABLE kept (n int); INSERT INTO kept VALUES (7)");
            SQLException refused = assertThrows(SQLException.class,
                    () -> DriverManager.getConnection(db.jdbcUrl(), db.user(), "postgres").close());
            assertEquals("28P01", refused.getSQLState(), refused.getMessage());
        } finally {
            first.stop();
        }
        Suite second = Suite.builder(root).services(EnumSet.noneOf(Service.class)).freePorts()
                .embeddedDatabase(root.resolve("pgdata")).shutdownHook(false).build().start();
        try {
            DatabaseConnection again = second.database().orElseThrow();
            assertEquals(db.password(), again.password());
            try (Connection c = DriverManager.getConnection(again.jdbcUrl(), again.user(), again.password());
                 ResultSet rs = c.createStatement().executeQuery("SELECT n FROM kept")) {
                assertTrue(rs.next());
                assertEquals(7, rs.getInt(1));
            }
        } finally {
            second.stop();
        }
    }

    private static void execute(DatabaseConnection db, String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password())) {
            c.createStatement().execute(sql);
        }
    }

    @Test
    void theLedgerStartsWithTheTieredJitAndTheOthersWithC1AloneUnlessTold() throws Exception {
        EnumSet<Service> three = EnumSet.of(Service.COLLECTOR, Service.LEDGER, Service.BILLING);
        Suite suite = suite().services(three).build().start();
        try {
            List<String> ledger = arguments(suite, Service.LEDGER);
            assertTrue(ledger.containsAll(List.of("-XX:CICompilerCount=2", "-XX:ReservedCodeCacheSize=64m",
                    "-XX:+UseG1GC", "-Xmx512m")), "the ledger's: " + ledger);
            assertEquals(JavaRuntime.current().trimsNativeHeap(), ledger.contains("-XX:TrimNativeHeapInterval=5000"),
                    "the ledger's, on Java " + JavaRuntime.current().version() + ": " + ledger);
            assertTrue(ledger.stream().noneMatch(a -> a.startsWith("-XX:TieredStopAtLevel")), "the ledger's: " + ledger);
            for (Service s : List.of(Service.COLLECTOR, Service.BILLING)) {
                List<String> lean = arguments(suite, s);
                assertTrue(lean.containsAll(List.of("-XX:TieredStopAtLevel=1", "-XX:ReservedCodeCacheSize=48m",
                        "-XX:+UseG1GC", "-Xmx512m")), s.id() + "'s: " + lean);
                assertFalse(lean.contains("-XX:CICompilerCount=2"), s.id() + "'s: " + lean);
            }
        } finally {
            suite.stop();
        }

        suite = suite().services(three).jvmOptions(List.of("-Xmx96m")).jvmOptions(Service.BILLING, List.of("-Xmx80m"))
                .build().start();
        try {
            for (Service s : three) {
                List<String> given = arguments(suite, s);
                String heap = s == Service.BILLING ? "-Xmx80m" : "-Xmx96m";
                assertEquals(heap, given.get(0), s.id() + "'s, options given replace the defaults: " + given);
                assertTrue(given.stream().noneMatch(a -> a.startsWith("-XX:")), s.id() + "'s: " + given);
            }
        } finally {
            suite.stop();
        }
    }

    /** The JVM options a running service was started with, before {@code -jar}. */
    private static List<String> arguments(Suite suite, Service service) {
        List<String> all = List.of(ProcessHandle.of(suite.pid(service).orElseThrow()).orElseThrow().info().arguments()
                .orElseThrow());
        return all.subList(0, all.indexOf("-jar"));
    }

    @Test
    void aBusyPortIsNamedBeforeAnythingStarts() throws IOException {
        try (ServerSocket busy = new ServerSocket(0)) {
            SuiteException e = assertThrows(SuiteException.class,
                    () -> suite().port(Service.LEDGER, busy.getLocalPort()).build().start());
            assertTrue(e.getMessage().contains("port " + busy.getLocalPort() + " for ledger-service is already in use"),
                    e.getMessage());
        }
        assertFalse(Files.exists(root.resolve(".gpumeter/logs/collector.log")), "nothing was started");
    }

    @Test
    void aServiceThatDiesDuringStartUpFailsWithItsLogAndLeavesNothingRunning() {
        Suite suite = suite().env(Service.LEDGER, "FAKE_FAIL", "true").build();
        SuiteException e = assertThrows(SuiteException.class, suite::start);
        assertTrue(e.getMessage().contains("ledger-service exited during start-up"), e.getMessage());
        assertTrue(e.getMessage().contains("FAKE_FAIL is set"), e.getMessage());
        assertFalse(suite.isRunning(Service.COLLECTOR));
        assertTrue(Ports.isFree(suite.port(Service.COLLECTOR)));
    }

    @Test
    void aMissingJarSaysHowToBuild() throws IOException {
        Files.delete(Service.LEDGER.jar(root));
        SuiteException e = assertThrows(SuiteException.class, () -> suite().build().start());
        assertTrue(e.getMessage().contains("ledger-service/target/quarkus-app/quarkus-run.jar is missing"), e.getMessage());
    }

    @Test
    void aServiceLeftRunningByAKilledLauncherIsStoppedByTheNextStart() throws Exception {
        int port = Ports.anyFree();
        Path jar = Service.LEDGER.jar(root);
        ProcessBuilder orphanBuilder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", jar.toString()).redirectErrorStream(true).redirectOutput(root.resolve("orphan.log").toFile());
        orphanBuilder.environment().put("QUARKUS_HTTP_PORT", Integer.toString(port));
        Process orphan = orphanBuilder.start();
        try {
            try {
                await("the orphan to listen").atMost(Duration.ofSeconds(30)).until(() -> !Ports.isFree(port));
            } catch (ConditionTimeoutException stillStarting) {
                // a slow machine's orphan may still be starting: the next start must stop it all the same
            }
            Process gone = new ProcessBuilder("true").start();
            gone.waitFor();
            Files.createDirectories(root.resolve(".gpumeter/run"));
            Files.writeString(root.resolve(".gpumeter/run/ledger.pid"), orphan.pid() + " " + gone.pid() + " " + jar + "\n");

            Suite suite = suite().port(Service.LEDGER, port).build().start();
            try {
                assertFalse(orphan.isAlive(), "the orphan was stopped");
                assertTrue(suite.isRunning(Service.LEDGER));
            } finally {
                suite.stop();
            }
        } finally {
            orphan.destroyForcibly();
        }
    }

    @Test
    void servicesParseStrictly() {
        assertEquals(Service.LEDGER, Service.parse("ledger"));
        assertEquals(Service.BILLING, Service.parse("Billing-Service"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Service.parse("ledgr"));
        assertTrue(e.getMessage().contains("collector, ledger, slo, alert, billing"));
        assertEquals(Service.CONSOLE, Service.parse("console"));
        assertEquals("console", Service.CONSOLE.module());
        assertEquals(List.of(8081, 8082, 8083, 8084, 8085, 8086, 8087),
                EnumSet.allOf(Service.class).stream().map(Service::defaultPort).toList());
        assertEquals(List.of(9081, 9082, 9083, 9084, 9085, 9086, 9087),
                EnumSet.allOf(Service.class).stream().map(Service::defaultManagementPort).toList());
        assertEquals(9003, Suite.builder(root).basePort(9000).config().ports().get(Service.SLO));
        assertEquals(9006, Suite.builder(root).basePort(9000).config().ports().get(Service.CONSOLE));
        assertEquals(10006, Suite.builder(root).basePort(9000).config().managementPorts().get(Service.CONSOLE));
        assertEquals("mcp-service", Service.MCP.module());
        assertEquals(9007, Suite.builder(root).basePort(9000).config().ports().get(Service.MCP));
    }

    private String get(URI base) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(base).GET().build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    private String get(String url) throws IOException, InterruptedException {
        return get(URI.create(url));
    }
}
