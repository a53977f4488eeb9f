package io.gpumeter.slo.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class SloRulesResourceTest {

    @BeforeEach
    @AfterEach
    void removeStoredSlos() {
        List<String> names = given().get(SloResourceTest.SLOS).then().statusCode(200).extract().jsonPath().getList("name");
        names.forEach(n -> given().delete(SloResourceTest.SLOS + "/" + n).then().statusCode(204));
    }

    private static Optional<Path> promtool() {
        return Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .map(dir -> Path.of(dir, "promtool")).filter(Files::isExecutable).findFirst();
    }

    @Test
    void theRulesOfEverySloPassPromtool() throws Exception {
        SloResourceTest.create(SloResourceTest.CHAT_TTFT);
        SloResourceTest.create("""
                {"name": "chat-e2e", "selector": {"service": "chat", "namespace": "ml"}, "sli": "E2E",
                 "objective": {"percentile": 99, "thresholdMs": 2500, "per": "REQUEST"}, "target": 0.995, "window": "P7D"}""");
        SloResourceTest.create("""
                {"name": "chat-up", "selector": {"service": "chat", "namespace": "ml"}, "sli": "AVAILABILITY", "target": 0.999,
                 "window": "P30D"}""");
        String yaml = given().get(SloResourceTest.SLOS + "/rules").then().statusCode(200)
                .contentType("application/yaml").extract().asString();
        assertTrue(yaml.contains("# chat-up skipped"), yaml);

        Optional<Path> promtool = promtool();
        assumeTrue(promtool.isPresent(), "promtool is not on PATH; install Prometheus' promtool to check the rules");
        Path file = Files.createTempFile("slo-rules", ".yaml");
        try {
            Files.writeString(file, yaml);
            Process p = new ProcessBuilder(promtool.get().toString(), "check", "rules", file.toString())
                    .redirectErrorStream(true).start();
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "promtool did not finish");
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, p.exitValue(), out + "\n" + yaml);
            // chat-e2e: 5 ratios + 3 alerts; chat-ttft: 1 bad-minute record + 5 ratios + 3 alerts
            assertTrue(out.contains("SUCCESS: 17 rules found"), out);
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
