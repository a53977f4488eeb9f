package io.gpumeter.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.security.AccessRule;
import io.gpumeter.common.security.AccessRules;
import io.gpumeter.common.security.Role;
import io.gpumeter.launcher.suite.Service;
import io.gpumeter.launcher.suite.Suite;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A hostile {@code tenant:acme} token against every endpoint of the five services, generated from their OpenAPI
 * documents and the access table, so a new endpoint joins the matrix by itself. Three tenants share one card
 * (acme, initech, hooli: one HAMi pod each on GPU-ESCAPE-1), initech has a budget and an SLO. Each operation is
 * tried with every spelling of the tenant parameter (any case, repeated, empty, percent-encoded name or value),
 * with non-canonical paths ({@code //}, {@code .}, {@code ..}, a trailing slash, {@code ;} parameters), as HEAD
 * and OPTIONS, and with every other parameter that could reach another tenant's rows (namespace, pod, node, card,
 * every groupBy and format). An answer passes when it is a refusal that names no other tenant, or a 2xx whose every
 * row is acme's — no other tenant's name anywhere in it, and every {@code tenant} field "acme". An operation the
 * access table does not open to tenants must refuse.
 */
@ExtendWith(TenantEscapeMatrixTest.StartSuite.class)
class TenantEscapeMatrixTest {

    private static final String CLUSTER = "escape";
    private static final String GPU = "GPU-ESCAPE-1";
    private static final String NODE = "escape-node";
    private static final List<String> FOREIGN = List.of("initech", "hooli", "globex");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final Pattern PATH_PARAM = Pattern.compile("\\{([^}]+)}");

    static Suite suite;
    static String acme;

    static final class StartSuite implements BeforeAllCallback {
        @Override
        public void beforeAll(ExtensionContext context) {
            suite = SuiteExtension.suite(context);
        }
    }

    @BeforeAll
    static void threeTenantsShareACard() {
        List<String> lines = new ArrayList<>();
        for (String tenant : List.of("acme", "initech", "hooli")) {
            lines.add("{\"type\":\"ADDED\",\"object\":{\"kind\":\"Namespace\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\""
                    + tenant + "-ml\",\"uid\":\"ns-" + tenant + "-x\",\"resourceVersion\":\"1\",\"labels\":{\"gpumeter.io/tenant\":\""
                    + tenant + "\",\"gpumeter.io/team\":\"" + tenant + "-team\"}}}}");
        }
        lines.add("{\"type\":\"ADDED\",\"object\":{\"kind\":\"Node\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"" + NODE
                + "\",\"uid\":\"node-x\",\"resourceVersion\":\"2\",\"labels\":{\"nvidia.com/gpu.product\":\"NVIDIA-H100-80GB-HBM3\","
                + "\"nvidia.com/gpu.memory\":\"81920\"},"
                // HAMi's registration of the card, without which the ledger books none of the three grants on it
                + "\"annotations\":{\"hami.io/node-nvidia-register\":\"[{\\\"id\\\": \\\"" + GPU + "\\\", \\\"index\\\": 0, "
                + "\\\"count\\\": 10, \\\"devmem\\\": 81920, \\\"devcore\\\": 100, \\\"type\\\": \\\"NVIDIA-H100-80GB-HBM3\\\", "
                + "\\\"numa\\\": 0, \\\"mode\\\": \\\"hami-core\\\", \\\"health\\\": true}]\"}},"
                + "\"status\":{\"capacity\":{\"nvidia.com/gpu\":\"10\"}}}}");
        int rv = 10;
        for (String tenant : List.of("acme", "initech", "hooli")) {
            String name = tenant + "-train-0";
            lines.add("{\"type\":\"MODIFIED\",\"object\":{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"" + name
                    + "\",\"namespace\":\"" + tenant + "-ml\",\"uid\":\"pod-" + name + "\",\"resourceVersion\":\"" + (rv++)
                    + "\",\"creationTimestamp\":\"2026-11-02T09:59:00Z\",\"labels\":{\"app\":\"" + tenant + "-app\"},"
                    + "\"annotations\":{\"hami.io/vgpu-devices-allocated\":\"" + GPU + ",NVIDIA,8192,30:;\","
                    + "\"hami.io/vgpu-devices-to-allocate\":\";\",\"hami.io/vgpu-node\":\"" + NODE + "\",\"hami.io/bind-phase\":\"success\"}},"
                    + "\"spec\":{\"schedulerName\":\"hami-scheduler\",\"nodeName\":\"" + NODE + "\",\"containers\":[{\"name\":\"main\","
                    + "\"resources\":{\"limits\":{\"nvidia.com/gpu\":\"1\",\"nvidia.com/gpumem\":\"8192\",\"nvidia.com/gpucores\":\"30\"}}}]},"
                    + "\"status\":{\"phase\":\"Running\",\"conditions\":[{\"type\":\"PodScheduled\",\"status\":\"True\","
                    + "\"lastTransitionTime\":\"2026-11-02T10:00:00Z\"}]}}}");
        }
        given().contentType("application/x-ndjson").queryParam("cluster", CLUSTER)
                .body((String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8))
                .post(url(Service.COLLECTOR, "/api/v1/ingest/kubernetes")).then().statusCode(200);
        for (String tenant : List.of("initech", "acme")) {
            given().contentType("application/json").body("{\"monthlyAmount\":1000.00}")
                    .put(url(Service.BILLING, "/api/v1/budgets/" + tenant)).then().statusCode(org.hamcrest.Matchers.lessThan(300));
        }
        given().contentType("application/json").body("""
                {"name":"initech-chat","selector":{"tenant":"initech"},"sli":"TTFT",
                 "objective":{"percentile":99,"thresholdMs":300,"per":"MINUTE"},"target":0.99,"window":"P30D"}""")
                .post(url(Service.SLO, "/api/v1/slos")).then().statusCode(org.hamcrest.Matchers.anyOf(
                        org.hamcrest.Matchers.equalTo(201), org.hamcrest.Matchers.equalTo(409)));
        acme = suite.token("escape-test", List.of("tenant:acme"), Duration.ofHours(1));
    }

    static String url(Service service, String path) {
        return suite.url(service).resolve(path).toString();
    }

    /** One HTTP operation of one service, from its OpenAPI document. */
    record Operation(Service service, String method, String template, List<String> queryParams) {
    }

    /** One request the matrix sends. */
    record Attempt(Operation op, String method, String rawPathAndQuery, String variant) {
    }

    @Test
    void aTenantTokenGetsItsOwnRowsOrARefusalWhateverItTries() throws Exception {
        List<Operation> operations = operations();
        assertTrue(operations.size() > 60, "every service's operations are in the matrix: " + operations.size());
        List<Attempt> attempts = new ArrayList<>();
        operations.forEach(op -> attempts.addAll(attempts(op)));

        Map<String, Integer> byStatus = new TreeMap<>();
        List<String> failures = new ArrayList<>();
        for (Attempt attempt : attempts) {
            HttpResponse<String> answer = send(attempt);
            byStatus.merge(answer.statusCode() / 100 + "xx " + answer.statusCode(), 1, Integer::sum);
            String verdict = judge(attempt, answer);
            if (verdict != null) {
                failures.add(attempt.method() + " " + attempt.op().service() + attempt.rawPathAndQuery() + " ["
                        + attempt.variant() + "] -> " + answer.statusCode() + ": " + verdict);
            }
        }
        System.out.printf("tenant escape matrix: %d operations, %d requests, answers %s, %d escapes%n",
                operations.size(), attempts.size(), byStatus, failures.size());
        assertEquals(List.of(), failures.subList(0, Math.min(20, failures.size())), failures.size() + " escapes");
    }

    /**
     * A triage of another tenant's pod is a 404 worded as one of a pod nobody knows, naming nothing but what the
     * request named; a triage of acme's own pod, which shares its card with initech's and hooli's, names neither.
     */
    @Test
    void aTenantTriagingAnotherTenantsPodIsTold404AsForAnUnknownOneAndItsOwnPodsAnswerNamesNoOtherTenant()
            throws Exception {
        HttpResponse<String> other = send(triage("namespace=initech-ml&pod=initech-train-0&cluster=" + CLUSTER));
        HttpResponse<String> unknown = send(triage("namespace=initech-ml&pod=nobody-0&cluster=" + CLUSTER));
        assertEquals(404, other.statusCode(), other.body());
        assertEquals(unknown.body().replace("nobody-0", "initech-train-0"), other.body());
        for (String named : List.of("hooli", "globex", "acme")) {
            assertTrue(!other.body().contains(named), named + " in " + other.body());
        }
        assertEquals(404, send(triage("node=" + NODE)).statusCode(), "a node is no tenant's");

        HttpResponse<String> own = send(triage("pod=acme-ml/acme-train-0&cluster=" + CLUSTER));
        assertEquals(200, own.statusCode(), own.body());
        String verdict = judge(new Attempt(new Operation(Service.ALERT, "GET", "/api/v1/triage", List.of()), "GET",
                "/api/v1/triage", "own pod"), own);
        assertEquals(null, verdict);
        assertEquals("acme", JSON.readTree(own.body()).path("subject").path("tenant").asText());
    }

    private static Attempt triage(String query) {
        return new Attempt(new Operation(Service.ALERT, "GET", "/api/v1/triage", List.of()), "GET",
                "/api/v1/triage?" + query, "triage");
    }

    /**
     * Null when the answer keeps acme to its own rows; else what leaked. A refusal may repeat what the request said
     * (a value it refuses), which is no leak; a server failure is a finding of its own.
     */
    private static String judge(Attempt attempt, HttpResponse<String> answer) {
        String body = answer.body() == null ? "" : answer.body();
        int status = answer.statusCode();
        if (status >= 500) {
            return "a server failure: " + abbreviate(body);
        }
        if (status >= 300) {
            return null;
        }
        String lower = body.toLowerCase(Locale.ROOT);
        for (String other : FOREIGN) {
            if (lower.contains(other)) {
                return "names " + other + ": " + abbreviate(body);
            }
        }
        if (!openToTenants(attempt.op().method(), attempt.op().template())) {
            return "a family closed to tenants answered " + status;
        }
        if (!attempt.method().equals(attempt.op().method())) {
            return attempt.method() + " answered like a read";
        }
        if (body.startsWith("[") || body.startsWith("{")) {
            try {
                String foreign = foreignTenantField(JSON.readTree(body));
                if (foreign != null) {
                    return "a row of tenant " + foreign;
                }
            } catch (IOException e) {
                return "an unreadable JSON answer";
            }
        }
        return null;
    }

    private static String foreignTenantField(JsonNode node) {
        if (node.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> f = fields.next();
                if (f.getKey().equalsIgnoreCase("tenant") && f.getValue().isTextual()
                        && !List.of("acme", "unknown", "unassigned").contains(f.getValue().asText())) {
                    return f.getValue().asText();
                }
                String inner = foreignTenantField(f.getValue());
                if (inner != null) {
                    return inner;
                }
            }
        } else if (node.isArray()) {
            for (JsonNode item : node) {
                String inner = foreignTenantField(item);
                if (inner != null) {
                    return inner;
                }
            }
        }
        return null;
    }

    private static boolean openToTenants(String method, String template) {
        String concrete = PATH_PARAM.matcher(template).replaceAll("x");
        AccessRule rule = AccessRules.match(method, concrete);
        return rule.allows(Role.TENANT);
    }

    private static List<Operation> operations() throws IOException, InterruptedException {
        List<Operation> out = new ArrayList<>();
        for (Service service : Service.apis()) {
            HttpResponse<String> doc = HTTP.send(HttpRequest.newBuilder(URI.create(url(service, "/q/openapi?format=json")))
                    .timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, doc.statusCode(), service + " serves its OpenAPI document");
            JsonNode paths = JSON.readTree(doc.body()).path("paths");
            paths.fieldNames().forEachRemaining(path -> {
                if (!path.startsWith("/api/")) {
                    return;
                }
                paths.path(path).fields().forEachRemaining(m -> {
                    String method = m.getKey().toUpperCase(Locale.ROOT);
                    if (!List.of("GET", "POST", "PUT", "DELETE", "PATCH").contains(method)) {
                        return;
                    }
                    List<String> query = new ArrayList<>();
                    List<JsonNode> params = new ArrayList<>();
                    paths.path(path).path("parameters").forEach(params::add);
                    m.getValue().path("parameters").forEach(params::add);
                    params.forEach(p -> {
                        if (p.path("in").asText().equals("query")) {
                            query.add(p.path("name").asText());
                        }
                    });
                    out.add(new Operation(service, method, path, query));
                });
            });
        }
        return out;
    }

    /** The values a hostile tenant would try for each parameter: other tenants' things first. */
    private static final Map<String, List<String>> VALUES = new LinkedHashMap<>();

    static {
        VALUES.put("from", List.of("2026-11-01T00:00:00Z"));
        VALUES.put("to", List.of("2026-12-01T00:00:00Z"));
        VALUES.put("at", List.of("2026-11-02T12:00:00Z"));
        VALUES.put("month", List.of("2026-11"));
        VALUES.put("week", List.of("2026-W45"));
        VALUES.put("day", List.of("2026-11-02"));
        VALUES.put("cluster", List.of(CLUSTER));
        VALUES.put("namespace", List.of("initech-ml", "acme-ml"));
        // a name alone, and namespace/name as a triage takes it (its only way to name a subject in one parameter)
        VALUES.put("pod", List.of("initech-train-0", "acme-train-0", "initech-ml/initech-train-0", "acme-ml/acme-train-0"));
        VALUES.put("workload", List.of("initech-ml/initech-train-0"));
        VALUES.put("podGroup", List.of("initech-ml/initech-train-0"));
        VALUES.put("node", List.of(NODE));
        VALUES.put("service", List.of("initech-chat", "initech-ml/initech-chat"));
        VALUES.put("groupBy", List.of("tenant", "team", "project", "namespace", "cluster", "model", "node", "owner",
                "tenant,namespace", "gpu", "pool", "fleet", "cause", "rootCause", "tenant,day", "team,week"));
        VALUES.put("bucket", List.of("day", "week"));
        VALUES.put("timeZone", List.of("Europe/Berlin"));
        VALUES.put("budgetPoints", List.of("7"));
        VALUES.put("format", List.of("json", "csv", "focus", "markdown"));
        VALUES.put("share", List.of("proportional"));
        VALUES.put("open", List.of("true"));
    }

    private static List<Attempt> attempts(Operation op) {
        List<Attempt> out = new ArrayList<>();
        for (String path : concretePaths(op.template())) {
            String base = baseQuery(op);
            String plain = path + (base.isEmpty() ? "" : "?" + base);
            out.add(new Attempt(op, op.method(), plain, "as is"));
            for (String spelling : List.of("tenant=initech", "Tenant=initech", "TENANT=initech", "tEnAnT=initech",
                    "tenant=acme&tenant=initech", "tenant=initech&tenant=acme", "tenant=acme&Tenant=initech",
                    "tenant=", "tenant", "%74enant=initech", "%54ENANT=initech", "tenant=%69nitech", "tenant=acme%00",
                    "tenant=acme,initech", "+tenant=initech")) {
                out.add(new Attempt(op, op.method(), path + "?" + join(base, spelling), spelling));
            }
            String suffix = base.isEmpty() ? "" : "?" + base;
            out.add(new Attempt(op, op.method(), "/" + path + suffix, "leading //"));
            out.add(new Attempt(op, op.method(), path + "/" + suffix, "trailing /"));
            out.add(new Attempt(op, op.method(), path.replaceFirst("/api/", "/api/./") + suffix, "dot segment"));
            out.add(new Attempt(op, op.method(), path.replaceFirst("/api/", "/api/x/../") + suffix, "dot-dot segment"));
            out.add(new Attempt(op, op.method(), path.replaceFirst("/api/", "/q/../api/") + suffix, "out of /q"));
            out.add(new Attempt(op, op.method(), path + ";tenant=initech" + suffix, "matrix parameter"));
            out.add(new Attempt(op, op.method(), path.replaceFirst("/api/", "/api;tenant=initech/") + suffix, "matrix in a segment"));
            if (op.method().equals("GET")) {
                out.add(new Attempt(op, "HEAD", plain, "HEAD"));
                out.add(new Attempt(op, "OPTIONS", plain, "OPTIONS"));
            }
            for (String name : op.queryParams()) {
                for (String value : VALUES.getOrDefault(name, List.of())) {
                    String query = join(withoutParam(base, name), name + "=" + value);
                    out.add(new Attempt(op, op.method(), path + "?" + query, name + "=" + value));
                }
            }
        }
        return out;
    }

    /** Each path parameter filled with another tenant's thing, and with acme's where that differs. */
    private static List<String> concretePaths(String template) {
        List<String> out = new ArrayList<>();
        for (boolean foreign : List.of(true, false)) {
            Matcher m = PATH_PARAM.matcher(template);
            StringBuilder path = new StringBuilder();
            while (m.find()) {
                String name = m.group(1).toLowerCase(Locale.ROOT);
                String value = switch (name) {
                    case "uuid" -> GPU;
                    case "node" -> NODE;
                    case "tenant" -> foreign ? "initech" : "acme";
                    case "month" -> "2026-11";
                    case "id" -> "1";
                    case "version" -> "1";
                    case "name" -> foreign ? "initech-chat" : "acme-chat";
                    default -> foreign ? "initech" : "acme";
                };
                m.appendReplacement(path, Matcher.quoteReplacement(value));
            }
            m.appendTail(path);
            if (!out.contains(path.toString())) {
                out.add(path.toString());
            }
        }
        return out;
    }

    private static String baseQuery(Operation op) {
        List<String> pieces = new ArrayList<>();
        for (String name : op.queryParams()) {
            if (List.of("from", "to", "month", "week", "at").contains(name)) {
                pieces.add(name + "=" + VALUES.get(name).get(0));
            }
        }
        return String.join("&", pieces);
    }

    private static String withoutParam(String query, String name) {
        List<String> kept = new ArrayList<>();
        for (String piece : query.split("&")) {
            if (!piece.isEmpty() && !piece.startsWith(name + "=")) {
                kept.add(piece);
            }
        }
        return String.join("&", kept);
    }

    private static String join(String a, String b) {
        return a.isEmpty() ? b : a + "&" + b;
    }

    private static HttpResponse<String> send(Attempt attempt) throws IOException, InterruptedException {
        URI base = suite.url(attempt.op().service());
        URI uri = URI.create(base.getScheme() + "://" + base.getRawAuthority() + attempt.rawPathAndQuery());
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + acme);
        if (List.of("POST", "PUT", "PATCH").contains(attempt.method())) {
            request.header("Content-Type", "application/json").method(attempt.method(), HttpRequest.BodyPublishers.ofString("{}"));
        } else {
            request.method(attempt.method(), HttpRequest.BodyPublishers.noBody());
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String abbreviate(String body) {
        return body.length() > 300 ? body.substring(0, 300) + "…" : body;
    }
}
