package io.gpumeter.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.launcher.demo.DemoSignals;
import io.gpumeter.launcher.simulator.Rfc3339;
import io.gpumeter.launcher.suite.Service;
import io.gpumeter.launcher.suite.Suite;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The demo's embedding job ran out of card memory under its neighbour's pressure. An operator reviews the incident
 * with a regression case; its export — every input the triage read, redacted to the job's tenant — is replayed with
 * the commands of its own README into a fresh suite (a ledger and alert-service on a database of their own), where
 * the same pod at the same instant triages to the same cause, and nothing in it names the neighbour's tenant.
 */
@ExtendWith(DemoSuite.Start.class)
@Order(DemoSuite.ORDER)
class RegressionCaseEndToEndTest {

    static final String CAUSE = "neighbour-memory-pressure";
    /** The neighbour's tenant, namespace and pod: none may be named in what the job's tenant keeps. */
    static final List<String> OTHER_TENANT = List.of("umbrella", "stream-bench");
    static final ObjectMapper JSON = new ObjectMapper();

    static Suite demo;
    static DemoSignals signals;
    static Suite fresh;

    @BeforeAll
    static void readTheDemo() {
        DemoSuite started = DemoSuite.started();
        demo = started.suite;
        signals = started.signals;
    }

    @AfterAll
    static void stopTheFreshSuite() {
        if (fresh != null) {
            fresh.stop();
        }
    }

    /** The ledger's incident of the job's failed allocation, waited for since the demo's last facts may be on their way. */
    static JsonPath oomIncident() throws InterruptedException {
        String[] pod = signals.oomPodKey().split("/");
        JsonPath all = DemoEndToEndTest.eventually(Duration.ofSeconds(60), () -> given()
                        .header("Authorization", "Bearer " + demo.adminToken())
                        .queryParam("from", Rfc3339.format(signals.oomAt().minus(Duration.ofHours(1))))
                        .queryParam("to", Rfc3339.format(signals.oomAt().plus(Duration.ofHours(1))))
                        .get(demo.url(Service.LEDGER).resolve("/api/v1/failures/incidents").toString())
                        .then().statusCode(200).extract().jsonPath(),
                answer -> !ours(answer, pod).isEmpty());
        List<Map<String, Object>> ours = ours(all, pod);
        assertEquals(1, ours.size(), "one incident of " + signals.oomPodKey() + ": " + all.prettify());
        return new JsonPath(JSON.valueToTree(ours.get(0)).toString());
    }

    private static List<Map<String, Object>> ours(JsonPath incidents, String[] pod) {
        return incidents.<Map<String, Object>>getList("$").stream()
                .filter(i -> pod[0].equals(i.get("namespace")) && pod[1].equals(i.get("pod"))).toList();
    }

    @Test
    void theOomsRegressionCaseReplaysIntoAFreshSuiteAndTriagesToTheSameCause(@org.junit.jupiter.api.io.TempDir Path dir)
            throws Exception {
        JsonPath incident = oomIncident();
        String id = incident.getString("id");

        // an operator reviews it with a regression case
        String operator = demo.token("sre-on-call", List.of("operator"), Duration.ofMinutes(30));
        String body = "{\"rootCauseClass\":\"data-plane\",\"cause\":\"" + CAUSE + "\",\"summary\":\"The card filled with"
                + " its neighbours' memory while the job stayed under its grant.\",\"prevention\":[{\"kind\":\"REGRESSION_CASE\","
                + "\"note\":\"the embedding job's OOM under a neighbour's pressure\"}]}";
        Response posted = given().header("Authorization", "Bearer " + operator).contentType("application/json").body(body)
                .post(demo.url(Service.ALERT).resolve("/api/v1/failures/incidents/" + id + "/review").toString());
        assertTrue(posted.statusCode() == 201 || posted.statusCode() == 200, posted.body().asString());
        JsonPath review = posted.jsonPath();
        assertEquals(CAUSE, review.getString("triage.cause"), "the triage frozen with the review: " + review.prettify());
        assertTrue(review.getInt("inputs.facts") > 0, review.prettify());

        // its export: the inputs, redacted to the job's tenant, and how to replay them
        byte[] zip = given().header("Authorization", "Bearer " + operator)
                .get(demo.url(Service.ALERT).resolve("/api/v1/failures/incidents/" + id + "/review/items/1").toString())
                .then().statusCode(200).contentType("application/zip").extract().asByteArray();
        Map<String, String> files = unzip(zip, dir);
        assertEquals(List.of("README.md", "bundle.json", "usage.json", "expected.json", "replay.sh"),
                List.copyOf(files.keySet()));
        for (String name : OTHER_TENANT) {
            files.forEach((file, text) -> assertFalse(text.contains(name), name + " named in " + file));
        }
        JsonNode bundle = JSON.readTree(files.get("bundle.json"));
        assertTrue(bundle.path("facts").path("pods").size() > 1, "the job's pod versions and its neighbours'");
        assertTrue(bundle.path("facts").path("nodes").path(0).path("gpus").size() > 0, "the node's HAMi registration");
        assertTrue(JSON.readTree(files.get("usage.json")).path("partials").size() > 0, "the card's memory minutes");
        JsonNode expected = JSON.readTree(files.get("expected.json"));
        assertEquals(CAUSE, expected.path("cause").asText());

        // a fresh suite: a ledger and alert-service on a database of their own, nothing in them
        fresh = freshSuite();
        JsonPath before = diagnosis(fresh, expected.path("triageQuery").asText(), 404);
        assertEquals("pod", before.getString("field"), "the fresh ledger knows nothing of the pod yet");

        // the README's commands, run as written
        List<String> commands = readmeCommands(files.get("README.md"));
        assertEquals(3, commands.size(), files.get("README.md"));
        String out = run(dir, String.join("\n", commands), Map.of("GPUMETER_TOKEN", fresh.adminToken(),
                "LEDGER", base(fresh, Service.LEDGER), "ALERT", base(fresh, Service.ALERT)));
        List<String> answers = out.lines().filter(l -> l.startsWith("{")).toList();
        assertEquals(3, answers.size(), out);
        JsonNode triage = JSON.readTree(answers.get(2));
        assertEquals("OOM", triage.path("symptom").asText(), triage.toPrettyString());
        assertEquals(CAUSE, triage.path("cause").asText(), triage.toPrettyString());
        Map<String, String> asked = params(expected.path("triageQuery").asText());
        assertEquals(signals.oomPodKey(), asked.get("namespace") + "/" + asked.get("pod"), "the same pod");
        assertEquals(Instant.parse(review.getString("triage.at")), Instant.parse(asked.get("at")),
                "the question the review's triage answered");
        assertEquals(Instant.parse(asked.get("at")), Instant.parse(triage.path("at").asText()), "at the same instant");
        for (String name : OTHER_TENANT) {
            assertFalse(triage.toString().contains(name), name + " in the replayed triage: " + triage.toPrettyString());
        }
        // the ledger's own diagnosis there agrees, and the evidence is the card's memory beside its neighbours'
        JsonPath replayed = diagnosis(fresh, expected.path("triageQuery").asText(), 200);
        assertEquals(CAUSE, replayed.getString("cause"), replayed.prettify());
        assertTrue(replayed.getList("evidence.fact", String.class).stream().anyMatch(f -> f.startsWith("beside it on ")),
                replayed.prettify());
    }

    static Suite freshSuite() {
        Path state = SuiteExtension.repoRoot().resolve("src/test/target/regression-replay-" + ProcessHandle.current().pid());
        return Suite.builder(SuiteExtension.repoRoot())
                .services(EnumSet.of(Service.LEDGER, Service.ALERT))
                .freePorts()
                .embeddedDatabase(state.resolve("pgdata"))
                .freshDatabase(true)
                .stateDirectory(state)
                .logDirectory(state.resolve("logs"))
                .env(Service.ALERT, "GPUMETER_ALERT_ALERTMANAGER_ENABLED", "false")
                // nothing to evaluate there, and no slo-service or billing to ask
                .env(Service.ALERT, "GPUMETER_ALERT_EVALUATION_EVERY", "off")
                .readyTimeout(Duration.ofMinutes(3))
                .build()
                .start();
    }

    static JsonPath diagnosis(Suite suite, String query, int status) {
        Response r = given().header("Authorization", "Bearer " + suite.adminToken()).queryParams(params(query))
                .get(suite.url(Service.LEDGER).resolve("/api/v1/triage/diagnosis").toString());
        assertEquals(status, r.statusCode(), r.body().asString());
        return r.jsonPath();
    }

    /** A query string's parameters, decoded. */
    static Map<String, String> params(String query) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            out.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                    URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return out;
    }

    static String base(Suite suite, Service service) {
        String url = suite.url(service).toString();
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    /** The lines of the README's shell block. */
    static List<String> readmeCommands(String readme) {
        List<String> out = new ArrayList<>();
        boolean in = false;
        for (String line : readme.lines().toList()) {
            if (line.startsWith("```")) {
                if (in) {
                    break;
                }
                in = true;
            } else if (in && !line.isBlank()) {
                out.add(line);
            }
        }
        return out;
    }

    /** Runs the commands with sh in {@code dir}, each answer on a line of its own; fails on any command's failure. */
    static String run(Path dir, String commands, Map<String, String> env) throws IOException, InterruptedException {
        Path script = dir.resolve("readme-commands.sh");
        Files.writeString(script, "set -eu\n" + commands.replace("\n", "\necho\n") + "\necho\n");
        ProcessBuilder pb = new ProcessBuilder("sh", script.toString()).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "the replay finished");
        assertEquals(0, p.exitValue(), "the replay's commands succeeded:\n" + out);
        return out;
    }

    /** The zip's files by name, in order, each also written into {@code dir}. */
    static Map<String, String> unzip(byte[] zip, Path dir) throws IOException {
        Map<String, String> out = new LinkedHashMap<>();
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(zip))) {
            for (ZipEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
                byte[] bytes = in.readAllBytes();
                Path file = dir.resolve(e.getName()).normalize();
                assertTrue(file.startsWith(dir), "an entry inside the zip's directory: " + e.getName());
                Files.write(file, bytes);
                out.put(e.getName(), new String(bytes, StandardCharsets.UTF_8));
            }
        }
        return out;
    }
}
