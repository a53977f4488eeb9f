package io.gpumeter.slo.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.gpumeter.common.testing.StandIn;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Names that tenants choose reach the acceptance pack: a vLLM pod without a service label is reported under its model
 * name, pods and namespaces are named by their tenants, the ledger's holdings carry HAMi card ids, owners and tenants,
 * and the scheduler's messages are quoted. Here each of them is hostile — quotes, {@code $(...)}, backticks, line
 * breaks, {@code ; | & #}, spaces, non-ASCII, a spreadsheet's formulas, HTML and Markdown — and goes through a plan
 * and its run into the pack. Each {@code requests.sh} is then run, by bash and by sh, with the real curl through a
 * stand-in HTTP proxy that records what arrives: the requests equal the reads the run made, and nothing else ran.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(LedgerStandIn.class)
class AcceptancePackHostileNamesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant FROM = Instant.parse("2026-11-03T10:00:00Z");
    private static final Instant TO = Instant.parse("2026-11-03T10:20:00Z");

    /** Each of these would leave a file named canary-… in the script's directory if the shell ran it. */
    static final String SERVICE = "chat$(touch canary-dollar) `touch canary-tick` 'q' \"dq\"; touch canary-semi"
            + " | touch canary-pipe & touch canary-amp # модель ü 🚀 ${HOME} \\ ~ *";
    static final String POD_1 = "-pod$(touch canary-pod)'; touch canary-pod2 #";
    static final String NAMESPACE = "ns 'x' `touch canary-ns` ü";
    static final String POD_2 = "two\nlines \"dq\" 'sq' $(touch canary-nl)\ntouch canary-line";
    static final String TOKEN = "tok'en\"$(touch canary-token)";
    static final String BLOCKED_POD = "held $(touch canary-held) 'sq' \"dq\" `touch canary-held2`;|&#";
    static final String PLAN_NAME = "<script>alert(1)</script> *plan* [x](http://evil.example) _u_ `c`";
    static final String ASSERTION = "p99 <b>bold</b> [x](javascript:alert(1)) *a* _b_ `c` | d";
    static final String MESSAGE = "<img src=x onerror=alert(1)> [click](javascript:alert(1)) *bold* _under_ `code`"
            + " | pipe\n# heading\n- item";
    static final String REASON = "=HYPERLINK(\"http://evil.example\",\"open\")";
    static final String CARD = "=HYPERLINK(\"http://evil.example\")";
    static final String CURRENCY = "\t=1+1";
    static final List<String> WORKLOADS = List.of("=HYPERLINK(\"http://evil.example\",\"open\")",
            "+cmd|' /C calc'!A0", "-2+3 <b>w</b>", "@SUM(1+1)*cmd|' /C calc'!A0");
    static final String SLO_URL = "http://slo.invalid:8083";

    /** A cell that a spreadsheet would run: its first character is one of these, and it is not a plain number. */
    private static final Pattern DANGEROUS = Pattern.compile("(?s)[=+\\-@\t\r].*");
    private static final Pattern PLAIN_NUMBER = Pattern.compile("-?[0-9]+(\\.[0-9]+)?([eE]-?[0-9]+)?");

    /** One request as it arrived: query values decoded, a body parsed. */
    record Request(String method, String authority, String path, Map<String, String> query, String authorization,
                   String contentType, JsonNode body) {
    }

    /** The proxy curl is sent through: it answers every request with {@code {}} and keeps it in its journal. */
    private static StandIn proxy;

    @BeforeAll
    static void startTheProxy() {
        proxy = StandIn.start();
        proxy.answer(any(anyUrl()), "{}");
    }

    @AfterAll
    static void stopTheProxy() {
        proxy.close();
    }

    /** The requests that reached the proxy, oldest first, as they arrived: query values decoded, a body parsed. */
    private static List<Request> seen() throws IOException {
        List<Request> seen = new ArrayList<>();
        for (LoggedRequest r : proxy.calls(anyRequestedFor(anyUrl()))) {
            URI uri = URI.create(r.getAbsoluteUrl());
            byte[] body = r.getBody();
            seen.add(new Request(r.getMethod().value(), uri.getRawAuthority(), uri.getPath(), query(uri.getRawQuery()),
                    r.getHeader("Authorization"), r.getHeader("Content-Type"),
                    body == null || body.length == 0 ? null : JSON.readTree(body)));
        }
        return seen;
    }

    /** Percent-decoding only: a '+' stays a '+', so a space sent as '+' would not pass for one. */
    private static Map<String, String> query(String raw) {
        Map<String, String> out = new TreeMap<>();
        if (raw != null) {
            for (String pair : raw.split("&")) {
                int eq = pair.indexOf('=');
                String previous = out.put(decode(pair.substring(0, eq)), decode(pair.substring(eq + 1)));
                assertEquals(null, previous, "a query name given twice: " + raw);
            }
        }
        return out;
    }

    private static String decode(String s) {
        return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    @Test
    void hostileNamesRoundTripThroughThePackAndRunNothingElse(@TempDir Path tmp) throws Exception {
        LedgerStandIn.reset();
        LedgerStandIn.answer(get(urlPathEqualTo("/api/v1/queue-wait/pending")), "queue-wait-pending",
                JSON.writeValueAsString(List.of(Map.of(
                        "cluster", "c1", "source", "KUEUE", "namespace", "team-y", "name", BLOCKED_POD,
                        "state", "PENDING", "waitingSince", FROM.plusSeconds(60).toString(), "ageSeconds", 240,
                        "reasonClass", "QUOTA", "reason", REASON, "message", MESSAGE))));
        LedgerStandIn.answer(get(urlPathEqualTo("/api/v1/costs")).withQueryParam("groupBy", equalTo("namespace")),
                JSON.writeValueAsString(Map.of("currency", CURRENCY,
                        "lines", List.of(Map.of("group", NAMESPACE, "gpuModel", "H100", "currency", CURRENCY, "rate", 4)))));
        // POD_1 holds half a HAMi card, alone, all through the run, POD_2 nothing; the ledger knows neither pod's queue
        LedgerStandIn.Unit half = new LedgerStandIn.Unit(NAMESPACE, POD_1, CARD, "@node-1", "+Kind", "\t=1+1", "\r=2+2",
                FROM.minusSeconds(3600), "VGPU", "0.5", 50, 1024L);
        Map<String, Object> held = LedgerShapes.held(half, FROM.toString(), TO.toString());
        LedgerStandIn.answer(post(urlPathEqualTo("/api/v1/holdings")), "holdings", JSON.writeValueAsString(List.of(
                Map.of("namespace", NAMESPACE, "pod", POD_1, "units", List.of(held)),
                Map.of("namespace", NAMESPACE, "pod", POD_2, "units", List.of()))));
        LedgerStandIn.answer(post(urlPathEqualTo("/api/v1/card-holdings")), "card-holdings",
                JSON.writeValueAsString(List.of(Map.of("gpuUuid", CARD, "units", List.of(held)))));
        LedgerStandIn.answer(post(urlPathEqualTo("/api/v1/pod-queues")), "pod-queues", JSON.writeValueAsString(
                Stream.of(POD_1, POD_2).map(pod -> unknownQueue(pod)).toList()));
        packAndRun(tmp);
    }

    private static Map<String, Object> unknownQueue(String pod) {
        Map<String, Object> queue = new java.util.LinkedHashMap<>();
        queue.put("namespace", NAMESPACE);
        queue.put("pod", pod);
        queue.put("known", false);
        queue.put("queue", null);
        return queue;
    }

    private void packAndRun(Path tmp) throws Exception {
        StringBuilder lines = new StringBuilder();
        for (int m = 0; m < 20; m++) {
            for (int i = 0; i < 5; i++) {
                Instant ts = FROM.plusSeconds(60L * m + i + 1);
                lines.append(latency(POD_1, ts)).append('\n').append(latency(POD_2, ts)).append('\n');
            }
        }
        given().contentType("application/x-ndjson").body(lines.toString().getBytes(StandardCharsets.UTF_8))
                .post("/api/v1/ingest/latency").then().statusCode(200);

        String location = given().contentType(ContentType.JSON).body(JSON.writeValueAsString(plan()))
                .post(AcceptanceRunResourceTest.RUNS).then().statusCode(201).extract().header("Location");
        String path = location.substring(location.indexOf(AcceptanceRunResourceTest.RUNS));
        byte[] pack = given().get(path + "/pack").then().statusCode(200).extract().asByteArray();
        assertArrayEquals(pack, given().get(path + "/pack").then().statusCode(200).extract().asByteArray(),
                "the same run packs to the same bytes");
        Map<String, byte[]> files = new TreeMap<>();
        AcceptanceRunResourceTest.unzip(pack).forEach((name, bytes) -> files.put(name.substring(name.indexOf('/') + 1),
                bytes));

        JsonNode run = JSON.readTree(files.get("run.json"));
        List<String> dirs = files.keySet().stream().filter(n -> n.endsWith("/requests.sh"))
                .map(n -> n.substring(0, n.length() - "requests.sh".length())).toList();
        assertEquals(4, dirs.size(), files.keySet().toString());
        for (int i = 0; i < dirs.size(); i++) {
            String sh = text(files, dirs.get(i) + "requests.sh");
            List<String> curls = sh.lines().filter(l -> !l.startsWith("#")).toList();
            List<String> inRunJson = new ArrayList<>();
            run.path("assertions").get(i).path("evidence").path("requests")
                    .forEach(r -> inRunJson.add(r.path("curl").asText()));
            assertEquals(inRunJson, curls, "run.json holds the commands requests.sh runs, and none is left out");
            for (String shell : List.of("bash", "sh")) {
                assertEquals(sorted(intended(i)), sorted(execute(shell, sh, tmp.resolve(shell + "-" + i))),
                        shell + " " + dirs.get(i) + "requests.sh\n" + sh);
            }
        }

        csvCellsAreDefused(files);
        verdictsShowNamesAsText(files);
    }

    private static ObjectNode plan() {
        ObjectNode plan = JSON.createObjectNode().put("name", PLAN_NAME).put("from", FROM.toString())
                .put("to", TO.toString());
        ArrayNode cells = plan.putArray("cells");
        List<String> names = List.of("c-hyperlink", "c-plus", "c-minus", "c-at");
        List<String> forms = List.of("HAMI", "MIG", "UNGOVERNED_SHARING", "HAMI");
        for (int i = 0; i < names.size(); i++) {
            ObjectNode cell = cells.addObject().put("name", names.get(i)).put("workload", WORKLOADS.get(i))
                    .put("form", forms.get(i));
            cell.putObject("selector").put("service", i == 0 ? SERVICE : names.get(i) + " 'svc'");
        }
        ArrayNode assertions = plan.putArray("assertions");
        assertions.addObject().put("name", ASSERTION).put("kind", "THRESHOLD").put("metric", "P99").put("sli", "TTFT")
                .put("cell", "c-hyperlink").put("maxMs", 300);
        assertions.addObject().put("name", "IF of c-hyperlink").put("kind", "THRESHOLD")
                .put("metric", "INTERFERENCE_FACTOR").put("cell", "c-hyperlink").put("max", 1.2);
        assertions.addObject().put("name", "held back").put("kind", "BLOCKED").put("namespace", "team-y")
                .put("pod", BLOCKED_POD).put("within", "PT5M");
        assertions.addObject().put("name", "idle cost").put("kind", "THRESHOLD").put("metric", "IDLE_COST")
                .put("cell", "c-hyperlink").put("max", 1);
        return plan;
    }

    private static String latency(String pod, Instant ts) throws IOException {
        return JSON.writeValueAsString(Map.of("service", SERVICE, "namespace", NAMESPACE, "pod", pod,
                "ts", ts.toString(), "ttftMs", 100, "ok", true));
    }

    /** The reads behind assertion {@code i}, as the run made them. */
    private static List<Request> intended(int i) {
        String ledger = URI.create(ConfigProvider.getConfig().getValue("quarkus.rest-client.ledger.url", String.class))
                .getRawAuthority();
        String billing = URI.create(ConfigProvider.getConfig().getValue("quarkus.rest-client.billing.url",
                String.class)).getRawAuthority();
        String slo = URI.create(SLO_URL).getRawAuthority();
        String bearer = "Bearer " + TOKEN;
        Map<String, String> window = Map.of("from", FROM.toString(), "to", TO.toString());
        // the cell names its service alone; the run reads it in the one namespace that reported it, and says which
        Request latency = new Request("GET", slo, "/api/v1/latency",
                with(window, "service", SERVICE, "namespace", NAMESPACE, "sli", "TTFT"), bearer, null, null);
        Request interference = new Request("GET", slo, "/api/v1/interference",
                with(window, "service", SERVICE, "namespace", NAMESPACE, "sli", "TTFT"), bearer, null, null);
        ArrayNode pods = JSON.createArrayNode();
        for (String key : new TreeSet<>(List.of(NAMESPACE + "/" + POD_1, NAMESPACE + "/" + POD_2))) {
            pods.addObject().put("namespace", key.substring(0, key.indexOf('/')))
                    .put("pod", key.substring(key.indexOf('/') + 1));
        }
        ObjectNode holdingsBody = JSON.createObjectNode().put("from", FROM.toString()).put("to", TO.toString());
        holdingsBody.set("pods", pods);
        ObjectNode queuesBody = JSON.createObjectNode();
        queuesBody.set("pods", pods);
        Request holdings = new Request("POST", ledger, "/api/v1/holdings", Map.of(), bearer, "application/json",
                holdingsBody);
        Request queues = new Request("POST", ledger, "/api/v1/pod-queues", Map.of(), bearer, "application/json",
                queuesBody);
        return switch (i) {
            case 0 -> List.of(latency, holdings, queues);
            case 1 -> List.of(interference, latency, holdings, queues);
            case 2 -> List.of(new Request("GET", ledger, "/api/v1/queue-wait/pending",
                    Map.of("at", FROM.plusSeconds(300).toString()), bearer, null, null));
            default -> List.of(holdings, queues, new Request("GET", ledger, "/api/v1/gpu-hours",
                    with(window, "groupBy", "pod,model"), bearer, null, null), new Request("GET", billing,
                    "/api/v1/costs", with(window, "groupBy", "namespace"), bearer, null, null));
        };
    }

    private static Map<String, String> with(Map<String, String> base, String... pairs) {
        Map<String, String> out = new TreeMap<>(base);
        for (int i = 0; i < pairs.length; i += 2) {
            out.put(pairs[i], pairs[i + 1]);
        }
        return out;
    }

    private static List<Request> sorted(List<Request> requests) {
        return requests.stream().sorted(Comparator.comparing(Request::toString)).toList();
    }

    /**
     * Runs the script as a reviewer would, in a directory of its own, with the real curl sent through the recording
     * proxy; answers what arrived, after checking that the script ended well and left nothing behind.
     */
    private static List<Request> execute(String shell, String script, Path dir) throws Exception {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("requests.sh"), script);
        ProcessBuilder builder = new ProcessBuilder(shell, "requests.sh").directory(dir.toFile())
                .redirectErrorStream(true);
        Map<String, String> env = builder.environment();
        String systemPath = env.get("PATH");
        env.clear();
        env.put("PATH", systemPath);
        env.put("HOME", dir.toString());
        env.put("GPUMETER_TOKEN", TOKEN);
        env.put("GPUMETER_SLO", SLO_URL);
        env.put("http_proxy", proxy.url());
        int before = seen().size();
        Process process = builder.start();
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the script ends");
        assertEquals(0, process.exitValue(), output);
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of("requests.sh"), left.map(p -> p.getFileName().toString()).sorted().toList(),
                    "nothing but curl ran: " + output);
        }
        List<Request> seen = seen();
        return List.copyOf(seen.subList(before, seen.size()));
    }

    /** Every CSV of the pack: no cell a spreadsheet would run, and the hostile ones are there, defused. */
    private static void csvCellsAreDefused(Map<String, byte[]> files) throws IOException {
        Map<String, Set<String>> cells = new TreeMap<>();
        for (String name : files.keySet()) {
            if (!name.endsWith(".csv")) {
                continue;
            }
            Set<String> found = new TreeSet<>();
            for (CSVRecord row : CSVFormat.DEFAULT.parse(new StringReader(text(files, name)))) {
                for (String cell : row) {
                    assertFalse(DANGEROUS.matcher(cell).matches() && !PLAIN_NUMBER.matcher(cell).matches(),
                            name + " holds a cell a spreadsheet would run: " + cell);
                    found.add(cell);
                }
            }
            cells.put(name, found);
        }
        String pods = files.keySet().stream().filter(n -> n.endsWith("/pods.csv")).findFirst().orElseThrow();
        // pods.csv: the ledger's names, one for each character a spreadsheet reads as a formula's start
        assertTrue(cells.get(pods).containsAll(List.of("'" + POD_1, "'" + CARD, "'@node-1", "'+Kind", "'\t=1+1",
                "'\r=2+2")), cells.get(pods).toString());
        // matrix.csv and commitments.csv: the plan's workloads (a plan's text holds no tab or CR) and billing's
        // currency
        List<String> workloads = WORKLOADS.stream().map(w -> "'" + w).toList();
        assertTrue(cells.get("matrix.csv").containsAll(workloads), cells.get("matrix.csv").toString());
        assertTrue(cells.get("matrix.csv").contains("'" + CURRENCY), cells.get("matrix.csv").toString());
        assertTrue(cells.get("commitments.csv").containsAll(workloads), cells.get("commitments.csv").toString());
        String blocked = files.keySet().stream().filter(n -> n.endsWith("-held-back/curve.csv")).findFirst()
                .orElseThrow();
        assertTrue(cells.get(blocked).containsAll(List.of("'" + REASON, BLOCKED_POD)), cells.get(blocked).toString());
    }

    /** verdict.md shows every name as text, whatever a Markdown viewer allows; verdict.html escapes it. */
    private static void verdictsShowNamesAsText(Map<String, byte[]> files) {
        String md = text(files, "verdict.md");
        assertFalse(md.contains("<"), md);
        String body = md.replaceFirst("\\*\\*Verdict: ([A-Z\\\\_]+)\\*\\*", "Verdict: $1");
        for (int i = 0; i < body.length(); i++) {
            if ("[]*_`~".indexOf(body.charAt(i)) >= 0) {
                int slashes = 0;
                while (i - slashes > 0 && body.charAt(i - slashes - 1) == '\\') {
                    slashes++;
                }
                assertTrue(slashes % 2 == 1, "unescaped '" + body.charAt(i) + "' at " + i + ": "
                        + body.substring(Math.max(0, i - 40), Math.min(body.length(), i + 40)));
            }
        }
        assertTrue(md.contains("&lt;img src=x onerror=alert(1)&gt; \\[click\\](javascript:alert(1)) \\*bold\\*"
                + " \\_under\\_ \\`code\\` \\| pipe # heading - item"), md);
        // a row or list item stays one line, and no line of a name opens a heading or a list
        List<String> lines = md.lines().toList();
        assertEquals(1, lines.stream().filter(l -> l.startsWith("# ")).count(), md);
        assertTrue(lines.stream().filter(l -> l.startsWith("|")).allMatch(l -> l.endsWith("|")), md);
        assertEquals(4, lines.stream().filter(l -> l.startsWith("| ") && l.contains(" | ") && !l.startsWith("| assertion")
                && (l.contains("| PASS |") || l.contains("| FAIL |") || l.contains("| NO\\_DATA |"))).count(), md);

        String html = text(files, "verdict.html");
        for (String raw : List.of("<img", "<script>alert", "<b>bold", "<b>w")) {
            assertFalse(html.contains(raw), raw + " in verdict.html");
        }
        assertTrue(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), html);
        assertTrue(html.contains("&lt;img src=x onerror=alert(1)&gt;"), html);
    }

    private static String text(Map<String, byte[]> files, String name) {
        byte[] bytes = files.get(name);
        if (bytes == null) {
            throw new UncheckedIOException(new IOException(name + " is not in the pack: " + files.keySet()));
        }
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
