package io.gpumeter.deploy;

import io.gpumeter.launcher.suite.Service;
import io.gpumeter.launcher.suite.Suite;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A running collector-service (with its embedded PostgreSQL, started by the launcher) answers the probes the
 * Deployments use, and its scrape holds the standard metrics and gauges deploy/service-metrics.txt promises.
 */
class ServiceScrapeTest {

    @Test
    void aRunningServiceExposesTheListedMetrics(@TempDir Path state) throws Exception {
        Path jar = Service.COLLECTOR.jar(Repo.root());
        Assumptions.assumeTrue(Files.isRegularFile(jar),
                () -> jar + " is not built (mvn package -pl collector-service): live scrape skipped");
        String scrape;
        try (Suite suite = Suite.builder(Repo.root()).services(EnumSet.of(Service.COLLECTOR)).freePorts()
                .stateDirectory(state).freshDatabase(true).shutdownHook(false).build().start()) {
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            URI base = suite.url(Service.COLLECTOR);
            URI management = suite.managementUrl(Service.COLLECTOR);
            // The endpoints the Deployments' probes call, on the management port only.
            for (String probe : new String[] {"/q/health/started", "/q/health/live", "/q/health/ready"}) {
                HttpResponse<String> health = http.send(HttpRequest.newBuilder(management.resolve(probe)).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, health.statusCode(), probe + ": " + health.body());
                assertEquals(404, http.send(HttpRequest.newBuilder(base.resolve(probe)).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode(), probe + " on the API port");
            }
            // One application request, so that the HTTP server metrics have a sample.
            HttpResponse<String> miss = http.send(HttpRequest.newBuilder(base.resolve("/api/v1/no-such-endpoint"))
                    .header("Authorization", "Bearer " + suite.adminToken()).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(404, miss.statusCode());
            // The API wants a token; the probes and the scrape above and below do not.
            HttpResponse<String> anonymous = http.send(HttpRequest.newBuilder(base.resolve("/api/v1/no-such-endpoint")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(401, anonymous.statusCode());
            assertEquals(404, http.send(HttpRequest.newBuilder(base.resolve("/q/metrics")).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode(), "metrics on the API port");
            assertEquals(404, http.send(HttpRequest.newBuilder(management.resolve("/api/v1/no-such-endpoint")).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode(), "the API on the management port");
            // jvm_gc_pause_* appear only after the first collection, which a freshly started service on an idle
            // machine may not have had yet: ask for one, as a long-running service would have had many.
            collectGarbage(suite.pid(Service.COLLECTOR).orElseThrow());
            HttpResponse<String> metrics = http.send(HttpRequest.newBuilder(management.resolve("/q/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, metrics.statusCode());
            scrape = metrics.body();
        }
        Set<String> names = Monitoring.sampleNames(scrape);
        Set<String> missing = new TreeSet<>();
        for (ServiceMetrics m : ServiceMetrics.load()) {
            boolean expectedNow = m.standard() || (m.kind().equals("gauge") && m.module().equals(Service.COLLECTOR.module()));
            if (expectedNow && !names.contains(m.name())) {
                missing.add(m.name());
            }
        }
        assertTrue(missing.isEmpty(), "listed in service-metrics.txt but not in the live scrape: " + missing);
        assertTrue(scrape.contains("outcome=\"CLIENT_ERROR\""), "http_server_requests carry the outcome label the dashboards use");
    }

    private static void collectGarbage(long pid) throws Exception {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        Assumptions.assumeTrue(Files.isExecutable(jcmd), () -> jcmd + " is missing (a JRE, not a JDK): live scrape skipped");
        Process run = new ProcessBuilder(jcmd.toString(), Long.toString(pid), "GC.run")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        assertTrue(run.waitFor(60, java.util.concurrent.TimeUnit.SECONDS), "jcmd GC.run did not finish");
        assertEquals(0, run.exitValue(), "jcmd GC.run failed");
    }
}
