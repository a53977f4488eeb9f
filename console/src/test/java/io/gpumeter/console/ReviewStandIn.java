package io.gpumeter.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * alert-service's incident reviews as the stand-in keeps them, shaped as its ReviewResource serves them:
 * {@code GET …/incidents/{id}/review} the newest version (a 404 before any), or Markdown with {@code format=markdown};
 * {@code POST} a new version from an operator's or admin's body ({@code rootCauseClass}, {@code cause}, {@code summary},
 * {@code prevention}; a {@code reviewer} is refused), the incident and its triage frozen with it; {@code GET
 * …/review/items/{n}} an item's export. The ledger's incidents by id answer beside it. One review is there from the
 * start: train-5's OOM under its neighbour's pressure.
 */
final class ReviewStandIn {

    /** train-5's OOM, reviewed. */
    static final String REVIEWED = "7f3a9c0e1b2d4f6a8c0e2b4d";
    /** The Failures fixture's open Xid 79 incident on gpu-a, not reviewed yet. */
    static final String OPEN_XID = "5d41402abc4b2a76b9719d91";
    private static final String PREFIX = "/api/v1/failures/incidents/";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> KINDS = Set.of("ALERT_THRESHOLD", "ADMISSION_POLICY", "ACCEPTANCE_ITEM", "REGRESSION_CASE");
    private static final Map<String, String> REVIEWS = new ConcurrentHashMap<>();

    static final String OOM_INCIDENT = """
            {"id":"7f3a9c0e1b2d4f6a8c0e2b4d","cluster":"lab","cause":"oom","rootCauseClass":"workload","scope":"container",
             "node":"gpu-a","gpuUuid":"GPU-aaaa-0001","namespace":"acme-ml","pod":"train-5","startedAt":"2026-11-30T09:30:00Z",
             "recoveredAt":"2026-11-30T09:42:00Z","endedAt":null,"open":false,"occurrences":1,
             "evidence":"main: OOMKilled (CUDA out of memory)"}""";
    static final String XID_INCIDENT = """
            {"id":"5d41402abc4b2a76b9719d91","cluster":"lab","cause":"XID_79","rootCauseClass":"data-plane","scope":"gpu",
             "node":"gpu-a","gpuUuid":"GPU-aaaa-0001","namespace":null,"pod":null,"startedAt":"2026-11-30T10:00:00Z",
             "recoveredAt":null,"endedAt":null,"open":true,"occurrences":3,
             "evidence":"kmsg: NVRM: Xid (PCI:0000:3b:00): 79, GPU has fallen off the bus"}""";
    private static final Map<String, String[]> INCIDENTS = Map.of(REVIEWED, new String[]{OOM_INCIDENT, TriageStandIn.NEIGHBOUR_OOM},
            OPEN_XID, new String[]{XID_INCIDENT, TriageStandIn.XID});

    private ReviewStandIn() {
    }

    static void install() {
        reset();
        INCIDENTS.forEach((id, incident) -> {
            StandIn.reply(Backend.LEDGER, PREFIX + id, false, StandIn.Reply.json(incident[0]));
            StandIn.reply(Backend.LEDGER, PREFIX + id, true, StandIn.Reply.problem(403, "Forbidden",
                    "a tenant token may not read fleet-wide figures"));
        });
        StandIn.handle(Backend.ALERT, PREFIX + "[^/]+/review(/items/[0-9]+)?", (path, query, body, tenant) -> {
            String[] parts = path.substring(PREFIX.length()).split("/");
            if (parts.length < 2 || !parts[1].equals("review")) {
                return null;
            }
            if (tenant) {
                return StandIn.Reply.problem(403, "Forbidden", "a tenant token may not read or write reviews");
            }
            if (parts.length == 4 && parts[2].equals("items")) {
                return export(parts[0], Integer.parseInt(parts[3]));
            }
            return body.isEmpty() ? read(parts[0], query) : record(parts[0], body);
        });
    }

    static void reset() {
        REVIEWS.clear();
        REVIEWS.put(REVIEWED, view(REVIEWED, 1, "ops-oncall", "2026-11-30T11:00:00Z", tree("""
                {"rootCauseClass":"data-plane","cause":"neighbour-memory-pressure",
                 "summary":"train-5 ran out of card memory at 09:30 while its own use stayed under its grant: notebook-2 filled the time-sliced card.",
                 "prevention":[{"kind":"ALERT_THRESHOLD","alert":"GpuMemoryNearlyFull","metric":"DCGM_FI_DEV_FB_FREE",
                                "aggregate":"min","by":["gpu"],"comparison":"<","threshold":2048,"for":"2m","severity":"warning",
                                "description":"A shared card's memory is nearly full"},
                               {"kind":"ADMISSION_POLICY","policy":"MAX_REQUEST","namespace":"globex-lab","resource":"nvidia.com/gpumem",
                                "limit":"20480","action":"DENY"},
                               {"kind":"REGRESSION_CASE","note":"the demo's neighbour OOM"}]}""")).toString());
    }

    private static StandIn.Reply read(String id, String query) {
        String review = REVIEWS.get(id);
        if (review == null) {
            return StandIn.Reply.problem(404, "Not Found", "incident " + id + " has no review");
        }
        if (query != null && query.contains("format=markdown")) {
            return new StandIn.Reply(200, "text/markdown;charset=UTF-8", "# Incident " + id + "\n\n" + tree(review).path("summary").asText() + "\n");
        }
        return StandIn.Reply.json(review);
    }

    private static StandIn.Reply record(String id, String body) {
        JsonNode b = tree(body);
        if (b.has("reviewer")) {
            return StandIn.Reply.problem(400, "Bad Request", "reviewer is not sent: the review is signed by the token that posts it");
        }
        for (String field : List.of("rootCauseClass", "cause", "summary")) {
            if (b.path(field).asText().isBlank()) {
                return StandIn.Reply.problem(400, "Bad Request", field + " is required");
            }
        }
        if (!b.path("prevention").isArray()) {
            return StandIn.Reply.problem(400, "Bad Request", "prevention is required: an array of items (it may be empty)");
        }
        for (int i = 0; i < b.get("prevention").size(); i++) {
            JsonNode item = b.get("prevention").get(i);
            if (!KINDS.contains(item.path("kind").asText())) {
                return StandIn.Reply.problem(400, "Bad Request", "prevention[" + i + "].kind must be one of " + KINDS);
            }
            if (item.path("kind").asText().equals("ALERT_THRESHOLD") && !item.path("threshold").isNumber()) {
                return StandIn.Reply.problem(400, "Bad Request", "prevention[" + i + "].threshold is required");
            }
        }
        if (!INCIDENTS.containsKey(id)) {
            return StandIn.Reply.problem(404, "Not Found", "no incident has the id '" + id + "'");
        }
        int version = REVIEWS.containsKey(id) ? tree(REVIEWS.get(id)).path("version").asInt() + 1 : 1;
        String review = view(id, version, "local-admin", "2026-11-30T12:30:00Z", b).toString();
        REVIEWS.put(id, review);
        return new StandIn.Reply(version == 1 ? 201 : 200, "application/json", review);
    }

    private static StandIn.Reply export(String id, int n) {
        if (!REVIEWS.containsKey(id)) {
            return StandIn.Reply.problem(404, "Not Found", "incident " + id + " has no review");
        }
        JsonNode item = tree(REVIEWS.get(id)).path("prevention").path(n - 1);
        if (!item.path("kind").asText().equals("ALERT_THRESHOLD")) {
            return StandIn.Reply.problem(404, "Not Found", "the stand-in exports alert thresholds only");
        }
        return new StandIn.Reply(200, "application/yaml", "apiVersion: monitoring.coreos.com/v1\nkind: PrometheusRule\n"
                + "spec:\n  groups:\n  - rules:\n    - alert: " + item.path("alert").asText() + "\n",
                Map.of("Content-Disposition", "attachment; filename=\"incident-" + id + "-item-" + n + ".yaml\""));
    }

    /** The review as alert-service serves it: the decision, each item numbered with its export, what was frozen. */
    private static ObjectNode view(String id, int version, String reviewer, String at, JsonNode decision) {
        ObjectNode v = JSON.createObjectNode().put("incidentId", id).put("version", version).put("versions", version)
                .put("reviewer", reviewer).put("reviewedAt", at).put("rootCauseClass", decision.path("rootCauseClass").asText())
                .put("cause", decision.path("cause").asText()).put("summary", decision.path("summary").asText());
        ArrayNode items = v.putArray("prevention");
        int n = 0;
        boolean regression = false;
        for (JsonNode i : decision.path("prevention")) {
            ObjectNode item = ((ObjectNode) i.deepCopy()).put("n", ++n)
                    .put("export", PREFIX + id + "/review/items/" + n + "?version=" + version);
            if (i.path("kind").asText().equals("ALERT_THRESHOLD")) {
                item.put("expr", i.path("aggregate").asText("") + (i.has("by") ? " by (gpu)" : "") + " (" + i.path("metric").asText() + ") "
                        + i.path("comparison").asText(">") + " " + i.path("threshold").asText());
            }
            regression |= i.path("kind").asText().equals("REGRESSION_CASE");
            items.add(item);
        }
        v.set("incident", tree(INCIDENTS.get(id)[0]));
        v.set("triage", tree(INCIDENTS.get(id)[1]));
        v.putNull("triageNote");
        if (regression) {
            v.putObject("inputs").put("facts", 412).put("note", "other tenants' pods named as another tenant's pod");
        } else {
            v.putNull("inputs");
        }
        v.put("page", PREFIX + id + "/review?format=html");
        return v;
    }

    private static JsonNode tree(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
