package io.gpumeter.deploy;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The services' own metrics that dashboards and rules rely on are still registered by the code. */
class ServiceMetricsTest {

    @Test
    void everyListedMetricIsRegisteredUnderItsName() {
        for (ServiceMetrics m : ServiceMetrics.load()) {
            if (m.standard()) {
                continue;
            }
            String prometheus = m.registeredAs().replace('.', '_') + (m.kind().equals("counter") ? "_total" : "");
            assertEquals(prometheus, m.name(), m.registeredAs() + " is exposed to Prometheus as " + prometheus);
            String call = switch (m.kind()) {
                case "counter" -> "(\\.counter\\(|Counter\\.builder\\()";
                case "gauge" -> "(\\.gauge\\(|Gauge\\.builder\\(|\\.gaugeCollectionSize\\(|\\.gaugeMapSize\\()";
                default -> throw new AssertionError("unknown kind " + m.kind() + " of " + m.name());
            };
            Pattern registration = Pattern.compile(call + "\\s*\"" + Pattern.quote(m.registeredAs()) + "\"");
            assertTrue(sources(m.module()).anyMatch(src -> registration.matcher(src).find()),
                    m.module() + " no longer registers the " + m.kind() + " \"" + m.registeredAs() + "\" (" + m.name() + ")");
        }
    }

    @Test
    void everyServiceExportsPrometheusMetricsAtQMetrics() throws IOException {
        for (String svc : Repo.SERVICES) {
            Path module = Repo.root().resolve(svc + "-service");
            String pom = Files.readString(module.resolve("pom.xml"));
            // the registry comes from the module's own POM or from the services' parent it inherits
            boolean inherited = pom.contains("<artifactId>gpumeter-service-parent</artifactId>")
                    && Files.readString(Repo.root().resolve("service-parent/pom.xml")).contains("quarkus-micrometer-registry-prometheus");
            assertTrue(pom.contains("quarkus-micrometer-registry-prometheus") || inherited,
                    svc + "-service has no Prometheus registry");
            String props = Files.readString(module.resolve("src/main/resources/application.properties"));
            assertTrue(props.contains("quarkus.micrometer.export.prometheus.path=/q/metrics"),
                    svc + "-service serves metrics elsewhere than /q/metrics, where the ServiceMonitors look");
            assertTrue(Repo.managementPort(svc) != Repo.port(svc), svc + "-service serves metrics on its API port");
        }
    }

    private static Stream<String> sources(String module) {
        Path java = Repo.root().resolve(module).resolve("src/main/java");
        try (Stream<Path> files = Files.walk(java)) {
            List<Path> list = files.filter(p -> p.toString().endsWith(".java")).toList();
            return list.stream().map(Repo::read);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
