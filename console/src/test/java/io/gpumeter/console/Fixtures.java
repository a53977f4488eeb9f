package io.gpumeter.console;

import io.gpumeter.common.security.TokenClaims;
import io.gpumeter.common.testing.TestTokens;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static io.restassured.RestAssured.given;

/**
 * The stand-in services' figures, and the users' tokens: the suite's test tokens ({@link TestTokens}, RS256, issuer
 * gpumeter, the roles in groups), whose public key the console verifies with, as the services' tests do.
 */
final class Fixtures {

    static final String AT = "2026-11-30T12:00:00Z";
    static final String MONTH = "2026-11";
    static final String ADMIN = TestTokens.token("local-admin", "admin");
    static final String ACME = TestTokens.token("acme-ci", "tenant:acme");
    static final String READER = TestTokens.token("fleet-reader", "reader");
    static final String SIGNIN_CODE = "one-time-code-0123456789abcdef";
    static final String SIGNIN_TOKEN = TestTokens.token("local-admin", "admin");
    /** The key that seals the console's sessions in the tests. */
    static final String SESSION_KEY = "test-session-key-0123456789abcdefghijklmnopqrstuvwxyz";

    private static final Map<String, String> SESSIONS = new ConcurrentHashMap<>();

    private Fixtures() {
    }

    /** A session cookie of {@code token}, signed in once and kept for the tests that only read pages. */
    static String session(String token) {
        return SESSIONS.computeIfAbsent(token, Fixtures::signIn);
    }

    /** A new session cookie of {@code token}, as the sign-in form sets it. */
    static String signIn(String token) {
        return given().redirects().follow(false).formParam("token", token).post("/signin").then().statusCode(303)
                .extract().cookie(Session.COOKIE);
    }

    /** Whether the stand-ins answer this token as a tenant's: it is confined to one, by the services' rule. */
    static boolean isTenant(String token) {
        return TokenClaims.read(token, Instant.now()).claims().flatMap(c -> c.caller().confinedTo()).isPresent();
    }

    static void install() {
        ChangeBookStandIn.install();
        TriageStandIn.install();
        ReviewStandIn.install();
        WorkloadsStandIn.install();
        VolcanoJobsStandIn.install();
        // The ledger's layout of two nodes: gpu-a with 4 cards (two held), gpu-b with 2 cards, one held by two MIG
        // slices on a card Kubernetes does not name (the device plugin says how many, not which; the ledger places
        // them); a tenant is refused it, as the ledger refuses it. Without layout=true, the fleet's occupant rows.
        StandIn.reply(Backend.LEDGER, "/api/v1/fleet/occupants", Map.of("layout", "true"), false, StandIn.Reply.json(LAYOUT));
        StandIn.reply(Backend.LEDGER, "/api/v1/fleet/occupants", Map.of("layout", "true"), true, StandIn.Reply.problem(403, "Forbidden",
                "a tenant token may not read fleet-wide figures"));
        StandIn.reply(Backend.LEDGER, "/api/v1/fleet/occupants", false, StandIn.Reply.json(FLEET));
        StandIn.reply(Backend.LEDGER, "/api/v1/gpus/GPU-aaaa-0001/occupants", false, StandIn.Reply.json(CARD_1));
        StandIn.reply(Backend.LEDGER, "/api/v1/gpus/GPU-aaaa-0001/occupants", true, StandIn.Reply.json(CARD_1_ACME));
        // two minutes of the card's own SM activity and one of a HAMi container's share of its cores
        String usage = """
                [{"scope":"DEVICE","scopeKey":"","field":"SM_ACTIVE","minute":"2026-11-30T11:58:00Z","mean":0.5,"max":0.6,"samples":4},
                 {"scope":"DEVICE","scopeKey":"","field":"SM_ACTIVE","minute":"2026-11-30T11:59:00Z","mean":0.25,"max":0.3,"samples":4},
                 {"scope":"DEVICE","scopeKey":"","field":"FB_USED","minute":"2026-11-30T11:59:00Z","mean":40960,"max":40960,"samples":4},
                 {"scope":"CONTAINER","scopeKey":"acme-ml/train-7/main","field":"VGPU_CORE_UTIL","minute":"2026-11-30T11:59:00Z","mean":0.45,"max":0.5,"samples":4}]""";
        // the fleet's cards' usage over the five minutes before the instant, every field a minute: GPU-aaaa-0001 at
        // 11:57 SM 0.5 beside GR_ENGINE 0.9 (the rule takes SM), at 11:58 GR_ENGINE 0.3 alone: 0.4 in all (the larger
        // of GR and SM would say 0.6, SM alone 0.5); its SM_OCCUPANCY is no activity; GPU-aaaa-0002 sent none
        StandIn.reply(Backend.LEDGER, "/api/v1/usage/series", false, StandIn.Reply.json("""
                [{"gpuUuid":"GPU-aaaa-0001","points":[
                  {"scope":"DEVICE","scopeKey":"","field":"SM_ACTIVE","minute":"2026-11-30T11:57:00Z","mean":0.5,"max":0.6,"samples":4,"seconds":60},
                  {"scope":"DEVICE","scopeKey":"","field":"GR_ENGINE_ACTIVE","minute":"2026-11-30T11:57:00Z","mean":0.9,"max":0.9,"samples":4,"seconds":60},
                  {"scope":"DEVICE","scopeKey":"","field":"GR_ENGINE_ACTIVE","minute":"2026-11-30T11:58:00Z","mean":0.3,"max":0.3,"samples":4,"seconds":60},
                  {"scope":"DEVICE","scopeKey":"","field":"SM_OCCUPANCY","minute":"2026-11-30T11:58:00Z","mean":0.95,"max":0.95,"samples":4,"seconds":60}]},
                 {"gpuUuid":"GPU-aaaa-0002","points":[]}]"""));
        StandIn.reply(Backend.LEDGER, "/api/v1/gpus/GPU-aaaa-0001/usage", false, StandIn.Reply.json(usage));
        StandIn.reply(Backend.LEDGER, "/api/v1/gpus/GPU-aaaa-0001/usage", true, StandIn.Reply.json(usage));
        StandIn.reply(Backend.LEDGER, "/api/v1/gpu-hours", false, StandIn.Reply.json("""
                [{"key":"acme","group":{"tenant":"acme"},"allocatedGpuHours":120.5,"usedGpuHours":80.25,"idleGpuHours":40.25,
                  "usageCoverage":0.9,"activityMetric":"SM_ACTIVE","usageConfidence":"HIGH","usageSource":"DCGM",
                  "energyKWh":96.4,"energyCoverage":0.9,"energySource":"ENERGY_COUNTER","idleEnergyKWh":null},
                 {"key":"globex","group":{"tenant":"globex"},"allocatedGpuHours":30,"usedGpuHours":0,"idleGpuHours":30,
                  "usageCoverage":0,"activityMetric":null,"usageConfidence":"NONE","usageSource":null,
                  "energyKWh":12.25,"energyCoverage":1,"energySource":"POWER_INTEGRAL","idleEnergyKWh":null}]"""));
        StandIn.reply(Backend.LEDGER, "/api/v1/gpu-hours", true, StandIn.Reply.json("""
                [{"key":"acme","group":{"tenant":"acme"},"allocatedGpuHours":120.5,"usedGpuHours":80.25,"idleGpuHours":40.25,
                  "usageCoverage":0.9,"activityMetric":"SM_ACTIVE","usageConfidence":"HIGH","usageSource":"DCGM",
                  "energyKWh":96.4,"energyCoverage":0.9,"energySource":"ENERGY_COUNTER","idleEnergyKWh":null}]"""));
        StandIn.reply(Backend.LEDGER, "/api/v1/idle", false, StandIn.Reply.json("""
                {"from":"2026-11-23T00:00:00Z","to":"2026-11-30T00:00:00Z","groupBy":"tenant","cluster":null,"busyThreshold":0.05,
                 "rows":[
                  {"key":"(unallocated)","group":{"tenant":"(unallocated)"},
                   "seconds":{"empty":360000,"queuedWhileEmpty":36000,"allocatedNotBusy":0,"busy":0,"allocatedUnmeasured":0,"total":396000},
                   "shares":{"empty":0.909091,"queuedWhileEmpty":0.090909,"allocatedNotBusy":0,"busy":0,"allocatedUnmeasured":0,"total":1},
                   "activityMetrics":null},
                  {"key":"acme","group":{"tenant":"acme"},
                   "seconds":{"empty":0,"queuedWhileEmpty":0,"allocatedNotBusy":144900,"busy":288000,"allocatedUnmeasured":0,"total":432900},
                   "shares":{"empty":0,"queuedWhileEmpty":0,"allocatedNotBusy":0.334719,"busy":0.665281,"allocatedUnmeasured":0,"total":1},
                   "activityMetrics":"SM_ACTIVE"}]}"""));
        StandIn.reply(Backend.LEDGER, "/api/v1/idle", true, StandIn.Reply.problem(403, "Forbidden",
                "a tenant token may not read fleet-wide figures"));
        StandIn.reply(Backend.LEDGER, "/api/v1/queue-wait", false, StandIn.Reply.json("""
                [{"key":"team-a-cq","count":12,"p50Seconds":90,"p95Seconds":1800,"p99Seconds":3725,"maxSeconds":7300},
                 {"key":"team-b-cq","count":3,"p50Seconds":30.5,"p95Seconds":45,"p99Seconds":45,"maxSeconds":45}]"""));
        StandIn.reply(Backend.LEDGER, "/api/v1/failures", false, StandIn.Reply.json("""
                [{"key":"XID_79","rootCauseClass":"hardware","count":4,"gpuHours":1200,"podStarts":50,"ratePer1000GpuHours":3.333333,
                  "ratePerPodStart":0.08,"mttrP50Seconds":600,"mttrMeanSeconds":750.5,"recovered":3,"open":1},
                 {"key":"OOMKilled","rootCauseClass":"workload","count":2,"gpuHours":1200,"podStarts":50,"ratePer1000GpuHours":1.666667,
                  "ratePerPodStart":0.04,"mttrP50Seconds":null,"mttrMeanSeconds":null,"recovered":0,"open":0}]"""));
        StandIn.reply(Backend.SLO, "/api/v1/capacity/plan", false, StandIn.Reply.json("""
                {"at":"2026-11-30T12:00:00Z","historyFrom":"2026-10-05","historyTo":"2026-11-30","historyDays":56,"horizonDays":30,
                 "timeZone":"UTC","method":"least squares per demand shape",
                 "terms":{"targetUtilization":0.85,"z":1.96,"jitterFloor":0,"failuresFloor":0.02,"peaksFloor":0},
                 "models":[{"model":"NVIDIA-H100-80GB-HBM3","spellings":["NVIDIA-H100-80GB-HBM3"],"inventorySince":"2026-09-01T00:00:00Z",
                   "supply":{"cards":16,"cordoned":1,"failed":0,"usable":15,"cardHours":21504,"usableCardHours":21400,
                             "shapes":[{"shape":"whole","kind":"WHOLE","cards":15,"units":15,"freeUnits":2}]},
                   "margins":{"jitter":{"measured":0.1,"floor":0,"applied":0.1,"source":"measured","basis":"interference factor 1.11"},
                              "failures":{"measured":0.01,"floor":0.02,"applied":0.02,"source":"floor","basis":"1 failure"},
                              "peaks":{"measured":0.05,"floor":0,"applied":0.05,"source":"measured","basis":"0.7 GPUs pending"}},
                   "queue":{"p95PeakSeconds":1800,"p95PeakDay":"2026-11-20","p95MedianSeconds":300,"pendingPeakGpus":3,
                            "pendingPeakHour":"2026-11-20T14:00:00Z","busiestHourOfDay":14,"pendingAtBusiestHour":0.7,"queueWaitCeilingSeconds":450},
                   "shapes":[{"workloadClass":"inference","classRule":"owner apps/Deployment","shape":"whole","kind":"WHOLE",
                     "service":{"namespace":"acme-prod","name":"llm-chat","sloService":"chat"},
                     "slo":{"name":"chat-ttft","sli":"TTFT","thresholdMs":800,"target":0.99},"rule":"acceptance",
                     "deliverable":{"perGpu":5,"committedPerGpu":4.15,"unit":"requests/s per GPU","runId":3,"runName":"chat",
                                    "form":"DEDICATED","measuredTo":"2026-11-20T00:00:00Z",
                                    "basis":"acceptance run 'chat' (#3), cell dedicated: 5.000 requests/s per GPU within TTFT 800 ms under DEDICATED"},
                     "demand":{"unit":"requests/s","daysFitted":56,"firstDayFitted":"2026-10-05","lastDay":52,"slopePerDay":0.25,
                               "growthPerWeek":0.0337,"trendClear":true,"forecastDay":"2026-12-30","forecast":66,"forecastLow":63,
                               "forecastHigh":69,"pods":3},
                     "margins":{"jitter":{"measured":0.1,"floor":0,"applied":0.1,"source":"measured","basis":"interference factor 1.11"},
                                "failures":{"measured":0.01,"floor":0.02,"applied":0.02,"source":"floor","basis":"1 failure"},
                                "peaks":{"measured":0.05,"floor":0,"applied":0.05,"source":"measured","basis":"0.7 GPUs pending"}},
                     "cardsNeeded":{"base":13.2,"jitter":1.6,"failures":0.32,"peaks":0.8,"total":15.92,"low":15.18,"high":16.65,"capped":false},
                     "supply":{"shape":"whole","kind":"WHOLE","cards":15,"units":15,"freeUnits":2},
                     "gap":{"cards":-0.92,"low":-1.65,"high":-0.18},"queueWaitCeilingSeconds":450,
                     "degradesFirst":{"policy":"throttle","configuredBy":"gpumeter.slo.capacity.degrade.inference"}}],
                   "cardsNeeded":{"base":13.2,"jitter":1.6,"failures":0.32,"peaks":0.8,"total":15.92,"low":15.18,"high":16.65,"capped":false},
                   "gap":{"cards":-0.92,"low":-1.65,"high":-0.18},
                   "summary":"NVIDIA-H100-80GB-HBM3: 15 usable cards, 15.92 needed by 1 shape with margins; short by ~1 card over the next 30 days"}]}"""));
        StandIn.reply(Backend.SLO, "/api/v1/capacity/plan", true, StandIn.Reply.problem(403, "Forbidden",
                "a tenant token may not read fleet-wide figures"));
        StandIn.reply(Backend.ALERT, "/api/v1/alerts", false, StandIn.Reply.json("""
                [{"fingerprint":"0123456789abcdef","startsAt":"2026-11-30T10:00:00Z","alertname":"GpuXidFatal","severity":"critical",
                  "labels":{"alertname":"GpuXidFatal","node":"gpu-a","gpu_uuid":"GPU-aaaa-0001","severity":"critical"},
                  "annotations":{"summary":"Xid 79 on GPU-aaaa-0001: the card fell off the bus",
                  "runbook_url":"http://alert-service:8084/api/v1/runbook#GpuXidFatal"},"state":"firing","endsAt":null,
                  "lastEvaluatedAt":"2026-11-30T11:59:00Z"},
                 {"fingerprint":"fedcba9876543210","startsAt":"2026-11-30T08:00:00Z","alertname":"SloBurnRateHigh","severity":"warning",
                  "labels":{"alertname":"SloBurnRateHigh","slo":"chat-ttft","service":"llm","severity":"warning"},
                  "annotations":{"summary":"chat-ttft burns its error budget 14x",
                  "runbook_url":"http://alert-service:8084/api/v1/runbook#SloBurnRateHigh"},"state":"resolved","endsAt":"2026-11-30T09:00:00Z",
                  "lastEvaluatedAt":"2026-11-30T09:00:00Z"}]"""));
        StandIn.reply(Backend.ALERT, "/api/v1/alerts", true, StandIn.Reply.problem(403, "Forbidden",
                "a tenant token may not read fleet-wide figures"));
        StandIn.reply(Backend.ALERT, "/api/v1/actions", false, StandIn.Reply.json("""
                [{"id":7,"alertFingerprint":"0123456789abcdef","alertname":"GpuXidFatal","startsAt":"2026-11-30T10:00:00Z",
                  "action":"cordon","mode":"enforce","target":"gpu-a","result":"APPLIED","detail":"cordoned gpu-a",
                  "at":"2026-11-30T10:00:30Z","resolvedAt":null,"timeToResolveSeconds":null,"undoResult":null,"undoDetail":null,
                  "undoneAt":null},
                 {"id":8,"alertFingerprint":"fedcba9876543210","alertname":"SloBurnRateHigh","startsAt":"2026-11-30T08:00:00Z",
                  "action":"ticket","mode":"dry-run","target":"llm","result":"DRY_RUN","detail":"dry-run: would open a ticket for llm",
                  "at":"2026-11-30T08:00:20Z","resolvedAt":"2026-11-30T09:00:00Z","timeToResolveSeconds":3600,"undoResult":"DRY_RUN",
                  "undoDetail":"dry-run: nothing to undo","undoneAt":"2026-11-30T09:00:05Z"}]"""));
        StandIn.reply(Backend.ALERT, "/api/v1/actions", true, StandIn.Reply.problem(403, "Forbidden",
                "a tenant token may not read fleet-wide figures"));
        StandIn.reply(Backend.LEDGER, "/api/v1/failures/incidents", false, StandIn.Reply.json("""
                [{"id":"5d41402abc4b2a76b9719d91","cluster":"lab","cause":"XID_79","rootCauseClass":"hardware","scope":"gpu","node":"gpu-a","gpuPci":"00000000:3B:00.0",
                  "gpuUuid":"GPU-aaaa-0001","namespace":null,"pod":null,"startedAt":"2026-11-30T10:00:00Z","recoveredAt":null,
                  "endedAt":null,"repairSeconds":null,"open":true,"occurrences":3,
                  "evidence":"kmsg: NVRM: Xid (PCI:0000:3b:00): 79, GPU has fallen off the bus"}]"""));
        StandIn.reply(Backend.BILLING, "/api/v1/budget-forecasts", false, StandIn.Reply.json("[" + ACME_FORECAST + "," + GLOBEX_FORECAST + "]"));
        StandIn.reply(Backend.BILLING, "/api/v1/budget-forecasts", true, StandIn.Reply.problem(403, "Forbidden",
                "a tenant token may not read fleet-wide figures"));
        StandIn.reply(Backend.BILLING, "/api/v1/budgets/acme/forecast", false, StandIn.Reply.json(ACME_FORECAST));
        StandIn.reply(Backend.BILLING, "/api/v1/cost-anomalies", false, StandIn.Reply.json("""
                {"day":"2026-11-29","from":"2026-11-22","to":"2026-11-29","currency":"USD","trailingDays":7,"sigmas":3,
                 "minimumCost":10.00,"method":"trailing mean + 3 sigma","tenants":[
                  {"tenant":"acme","cost":96.00,"trailingMean":40.00,"trailingStdDev":5.00,"threshold":55.00,"anomalous":true},
                  {"tenant":"globex","cost":12.00,"trailingMean":11.50,"trailingStdDev":1.20,"threshold":15.10,"anomalous":false}]}"""));
        StandIn.reply(Backend.BILLING, "/api/v1/cost-anomalies", true, StandIn.Reply.problem(403, "Forbidden",
                "a tenant token may not read fleet-wide figures"));
        // chat-ttft's budget burns down across the morning: 60 % left at 06:00, overspent by 12:00; acme's stays at 80 %
        String[] left = {"0.6", "0.55", "0.45", "0.3", "0.1", "-0.2", "-0.5"};
        List<String> chat = new java.util.ArrayList<>();
        List<String> acme = new java.util.ArrayList<>();
        for (int h = 0; h < left.length; h++) {
            String at = "\"at\":\"2026-11-30T" + String.format("%02d", 6 + h) + ":00:00Z\"";
            chat.add("{" + at + ",\"remaining\":" + left[h] + "}");
            acme.add("{" + at + ",\"remaining\":0.8}");
        }
        StandIn.reply(Backend.SLO, "/api/v1/slo-states", false, StandIn.Reply.json("[" + withBudgetLeft(CHAT_STATE, chat) + ","
                + withBudgetLeft(ACME_SLO_STATE, acme) + "]"));
        StandIn.reply(Backend.SLO, "/api/v1/slo-states", true, StandIn.Reply.json("[" + ACME_SLO_STATE + "]"));
        StandIn.reply(Backend.SLO, "/api/v1/slos/chat-ttft/status", false, StandIn.Reply.json(CHAT_STATUS));
        StandIn.reply(Backend.SLO, "/api/v1/slos/acme-availability/status", false, StandIn.Reply.json(ACME_SLO_STATUS));
        StandIn.reply(Backend.LEDGER, "/api/v1/queue-wait/pending", false, StandIn.Reply.json("""
                [{"cluster":"lab","source":"kueue","namespace":"acme-ml","name":"job-train-9-3f2a1","clusterQueue":"team-a-cq",
                  "localQueue":"acme-lq","volcanoQueue":null,"scheduler":null,"state":"pending","waitingSince":"2026-11-30T11:00:00Z",
                  "ageSeconds":3600,"reasonClass":"quota","rootCauseClass":"capacity","reason":"Pending",
                  "message":"couldn't assign flavors to pod set main: insufficient unused quota for nvidia.com/gpu in flavor h100, 4 more needed",
                  "rejections":2,"priority":100,"positionInClusterQueue":1,"positionInLocalQueue":1,"positionObservedAt":"2026-11-30T11:59:00Z"},
                 {"cluster":"lab","source":"pod","namespace":"globex-lab","name":"notebook-3","clusterQueue":null,"localQueue":null,
                  "volcanoQueue":null,"scheduler":"default-scheduler","state":"Pending","waitingSince":"2026-11-30T11:50:00Z",
                  "ageSeconds":600,"reasonClass":"insufficient_gpu","rootCauseClass":"capacity","reason":"FailedScheduling",
                  "message":"0/2 nodes are available: 2 Insufficient nvidia.com/gpu.","rejections":3,"priority":null,
                  "positionInClusterQueue":null,"positionInLocalQueue":null,"positionObservedAt":null}]"""));
        StandIn.reply(Backend.LEDGER, "/api/v1/scheduling-decisions", false, StandIn.Reply.json("""
                {"cluster":"lab","kind":"pod","namespace":"globex-lab","name":"notebook-3","uid":"u6","queue":null,"state":"Pending",
                 "waitingSince":"2026-11-30T11:50:00Z","reasonClass":"insufficient_gpu","rootCauseClass":"capacity",
                 "reason":"FailedScheduling","message":"0/2 nodes are available: 2 Insufficient nvidia.com/gpu.","rejections":3,
                 "waits":[],"phases":[],
                 "trail":[{"at":"2026-11-30T11:50:00Z","step":"created","status":"Pending","reason":null,"message":null,
                           "reasonClass":null,"rootCauseClass":null,"detail":null},
                          {"at":"2026-11-30T11:50:01Z","step":"scheduling","status":null,"reason":"FailedScheduling",
                           "message":"0/2 nodes are available: 2 Insufficient nvidia.com/gpu.","reasonClass":"insufficient_gpu",
                           "rootCauseClass":"capacity","detail":null},
                          {"at":"2026-11-30T11:55:00Z","step":"scheduling","status":null,"reason":"FailedScheduling",
                           "message":"0/2 nodes are available: 2 Insufficient nvidia.com/gpu.","reasonClass":"insufficient_gpu",
                           "rootCauseClass":"capacity","detail":null}]}"""));
        StandIn.reply(Backend.SLO, "/api/v1/jitter-events", false, StandIn.Reply.json("""
                [{"id":42,"slo":"chat-ttft","service":"llm","namespace":"acme-serve","sli":"TTFT","start":"2026-11-30T10:20:00Z","end":"2026-11-30T10:26:00Z",
                  "badMinutes":6,"peakP99Ms":1840.5,"thresholdMs":500,"factor":2,"limitMs":1000,"topSuspect":"globex-lab/notebook-2",
                  "topSuspectScore":0.8123,"updatedAt":"2026-11-30T10:30:00Z"},
                 {"id":41,"slo":"chat-ttft","service":"llm","sli":"TTFT","start":"2026-11-30T08:02:00Z","end":"2026-11-30T08:04:00Z",
                  "badMinutes":2,"peakP99Ms":1100,"thresholdMs":500,"factor":2,"limitMs":1000,"topSuspect":null,
                  "topSuspectScore":null,"updatedAt":"2026-11-30T08:10:00Z"}]"""));
        StandIn.reply(Backend.SLO, "/api/v1/jitter-events/42", false, StandIn.Reply.json(JITTER_42));
        StandIn.reply(Backend.SLO, "/api/v1/interference", false, StandIn.Reply.json("""
                {"service":"llm","sli":"TTFT","from":"2026-11-29T12:00:00Z","to":"2026-11-30T12:00:00Z","maxWindow":"PT24H",
                 "narrowed":false,"podMinutes":2880,
                 "unplacedPodMinutes":0,"precision":"histogram",
                 "byNeighbours":[
                  {"bucket":"0","podMinutes":2000,"requests":600000,"requestsPerPodMinute":300,"latencySamples":600000,"p99Ms":450,
                   "ifLatency":1,"ifThroughput":1},
                  {"bucket":"1","podMinutes":700,"requests":196000,"requestsPerPodMinute":280,"latencySamples":196000,"p99Ms":720,
                   "ifLatency":1.6,"ifThroughput":0.933333},
                  {"bucket":"2","podMinutes":180,"requests":45000,"requestsPerPodMinute":250,"latencySamples":45000,"p99Ms":1215,
                   "ifLatency":2.7,"ifThroughput":0.833333},
                  {"bucket":"3+","podMinutes":0,"requests":0,"requestsPerPodMinute":null,"latencySamples":0,"p99Ms":null,
                   "ifLatency":null,"ifThroughput":null}],
                 "byKind":[
                  {"bucket":"training","podMinutes":500,"requests":125000,"requestsPerPodMinute":250,"latencySamples":125000,"p99Ms":900,
                   "ifLatency":2,"ifThroughput":0.833333},
                  {"bucket":"inference","podMinutes":380,"requests":114000,"requestsPerPodMinute":300,"latencySamples":114000,"p99Ms":600,
                   "ifLatency":1.333333,"ifThroughput":1},
                  {"bucket":"unknown","podMinutes":0,"requests":0,"requestsPerPodMinute":null,"latencySamples":0,"p99Ms":null,
                   "ifLatency":null,"ifThroughput":null}]}"""));
        for (String fleetWide : List.of("/api/v1/jitter-events", "/api/v1/jitter-events/42", "/api/v1/interference")) {
            StandIn.reply(Backend.SLO, fleetWide, true, StandIn.Reply.problem(403, "Forbidden",
                    "a tenant token may not read fleet-wide figures"));
        }
        for (String fleetWide : List.of("/api/v1/queue-wait", "/api/v1/failures", "/api/v1/failures/incidents",
                "/api/v1/queue-wait/pending", "/api/v1/scheduling-decisions")) {
            StandIn.reply(Backend.LEDGER, fleetWide, true, StandIn.Reply.problem(403, "Forbidden",
                    "a tenant token may not read fleet-wide figures"));
        }
        StandIn.reply(Backend.BILLING, "/api/v1/reports/monthly", false, StandIn.Reply.json("[" + ACME_LINE + "," + GLOBEX_LINE + "]"));
        StandIn.reply(Backend.BILLING, "/api/v1/reports/monthly", true, StandIn.Reply.json("[" + ACME_LINE + "]"));
        StandIn.reply(Backend.BILLING, "/api/v1/reports/series", false, StandIn.Reply.json(series(SERIES_ACME + "," + SERIES_GLOBEX)));
        StandIn.reply(Backend.BILLING, "/api/v1/reports/series", true, StandIn.Reply.json(series(SERIES_ACME)));
    }

    /* November's cost per day: acme 4.5 h (3 used) costing 18.45 on the 29th and 2 h (1 used) costing 8.20 on the 30th;
     * globex 30 h, none used, costing 60.00 on the 29th. Energy: acme 3.6 kWh on the 29th (0.72 at 0.20 per kWh, 1.26 kg
     * at 350 g), 1.2 kWh on the 30th; globex 12.25 kWh, in a cluster billing prices no energy for. */
    static final String SERIES_ACME = """
            {"bucket":"2026-11-29","group":"acme","tenant":"acme","allocatedGpuHours":4.5,"usedGpuHours":3,"idleGpuHours":1.5,
             "allocatedCost":18.45,"usedCost":12.30,"idleCost":6.15,"rateCardVersion":"v1","energyKWh":3.6,"energyCost":0.72,
             "co2eKg":1.26},
            {"bucket":"2026-11-30","group":"acme","tenant":"acme","allocatedGpuHours":2,"usedGpuHours":1,"idleGpuHours":1,
             "allocatedCost":8.20,"usedCost":4.10,"idleCost":4.10,"rateCardVersion":"v1","energyKWh":1.2,"energyCost":0.24,
             "co2eKg":0.42}
            """;
    static final String SERIES_GLOBEX = """
            {"bucket":"2026-11-29","group":"globex","tenant":"globex","allocatedGpuHours":30,"usedGpuHours":0,"idleGpuHours":30,
             "allocatedCost":60.00,"usedCost":0.00,"idleCost":60.00,"rateCardVersion":"v1","energyKWh":12.25,"energyCost":null,
             "co2eKg":null}""";

    /** A state as slo-states answers it with budgetPoints: its budget left at each instant. */
    private static String withBudgetLeft(String state, List<String> points) {
        String trimmed = state.strip();
        return trimmed.substring(0, trimmed.length() - 1) + ",\"budgetLeft\":[" + String.join(",", points) + "]}";
    }

    private static String series(String lines) {
        StringBuilder buckets = new StringBuilder();
        for (int d = 1; d <= 30; d++) {
            buckets.append(d > 1 ? "," : "").append(String.format("{\"label\":\"2026-11-%02d\",\"start\":\"2026-11-%02dT00:00:00Z\","
                    + "\"end\":\"%s\"}", d, d, d < 30 ? String.format("2026-11-%02dT00:00:00Z", d + 1) : "2026-12-01T00:00:00Z"));
        }
        return "{\"month\":\"2026-11\",\"bucket\":\"day\",\"groupBy\":\"tenant\",\"timeZone\":\"UTC\",\"currency\":\"USD\","
                + "\"buckets\":[" + buckets + "],\"lines\":[" + lines + "]}";
    }

    private static final String ACME_FORECAST = """
            {"tenant":"acme","month":"2026-11","currency":"USD","budget":1000.00,"asOf":"2026-11-30T12:00:00Z","spentToDate":900.00,
             "elapsedFraction":0.983333,"forecast":915.25,"overrun":false,"overrunAmount":0.00,"remaining":100.00,"closed":false,
             "method":"linear"}""";
    private static final String GLOBEX_FORECAST = """
            {"tenant":"globex","month":"2026-11","currency":"USD","budget":50.00,"asOf":"2026-11-30T12:00:00Z","spentToDate":60.00,
             "elapsedFraction":0.983333,"forecast":61.02,"overrun":true,"overrunAmount":11.02,"remaining":-10.00,"closed":false,
             "method":"linear"}""";

    private static final String CHAT_STATUS = """
            {"name":"chat-ttft","service":"llm","sli":"TTFT","target":0.99,"window":"P7D","from":"2026-11-23T12:00:00Z",
             "to":"2026-11-30T12:00:00Z","state":"TICKET","attainment":0.985,"meetsTarget":false,"goodEvents":9850,"totalEvents":10000,
             "errorBudget":{"allowedBad":100,"bad":150,"remaining":-0.5},
             "alerts":[{"severity":"PAGE","factor":14.4,"budgetConsumed":0.02,"longWindow":{"window":"PT1H","good":590,"total":600,"burnRate":1.67},
                        "shortWindow":{"window":"PT5M","good":49,"total":50,"burnRate":2},"firing":false},
                       {"severity":"TICKET","factor":1,"budgetConsumed":0.1,"longWindow":{"window":"PT6H","good":3500,"total":3600,"burnRate":2.78},
                        "shortWindow":{"window":"PT30M","good":290,"total":300,"burnRate":3.33},"firing":true}]}""";
    private static final String CHAT_STATE = """
            {"slo":{"name":"chat-ttft","selector":{"service":"llm"},"sli":"TTFT",
                    "objective":{"percentile":99,"thresholdMs":500,"per":"MINUTE"},"target":0.99,"window":"P7D",
                    "createdAt":"2026-11-01T00:00:00Z","updatedAt":"2026-11-01T00:00:00Z"},
             "status":""" + CHAT_STATUS + """
            ,
             "latency":{"service":"llm","sli":"TTFT","from":"2026-11-30T06:00:00Z","to":"2026-11-30T12:00:00Z","count":900,
                        "p50Ms":120,"p95Ms":380,"p99Ms":640,"maxMs":1200,"precision":"histogram",
                        "minutes":""" + chatMinutes() + "}}";

    /** llm's TTFT every five minutes from 06:00 to 12:00, over its 500 ms objective around 10:00 (720 ms at 10:01). */
    private static String chatMinutes() {
        List<String> points = new java.util.ArrayList<>();
        for (int m = 0; m <= 360; m += 5) {
            int minute = m == 240 ? 241 : m;
            double p99 = minute == 241 ? 720 : 380 + 40 * Math.sin(minute / 17.0) + (Math.abs(minute - 240) <= 15 ? 160 : 0);
            points.add("{\"minute\":\"2026-11-30T" + String.format("%02d:%02d", 6 + minute / 60, minute % 60) + ":00Z\",\"latency\":"
                    + "{\"count\":300,\"p50Ms\":110,\"p95Ms\":" + Math.round(p99 * 0.7) + ",\"p99Ms\":" + Math.round(p99) + ",\"maxMs\":"
                    + Math.round(p99 * 1.5) + "}}");
        }
        return "[" + String.join(",", points) + "]";
    }

    private static final String ACME_SLO_STATUS = """
            {"name":"acme-availability","service":null,"tenant":"acme","sli":"AVAILABILITY","target":0.995,"window":"P7D",
             "from":"2026-11-23T12:00:00Z","to":"2026-11-30T12:00:00Z","state":"OK","attainment":0.999,"meetsTarget":true,"goodEvents":4995,
             "totalEvents":5000,"errorBudget":{"allowedBad":25,"bad":5,"remaining":0.8},"alerts":[],
             "selection":{"from":"2026-11-23T12:00:00Z","to":"2026-11-30T12:00:00Z","podMinutes":100,"tenantPodMinutes":100,
                          "otherPodMinutes":0,"unknownPodMinutes":0,"unresolvedPodMinutes":0,"unknownPods":[]}}""";
    private static final String ACME_SLO_STATE = """
            {"slo":{"name":"acme-availability","selector":{"tenant":"acme"},"sli":"AVAILABILITY","target":0.995,"window":"P7D",
                    "createdAt":"2026-11-01T00:00:00Z","updatedAt":"2026-11-01T00:00:00Z"},
             "status":""" + ACME_SLO_STATUS + """
            ,
             "latency":null}""";

    private static final String JITTER_42 = """
            {"id":42,"slo":"chat-ttft","service":"llm","namespace":"acme-serve","sli":"TTFT","start":"2026-11-30T10:20:00Z",
             "end":"2026-11-30T10:26:00Z",
             "badMinutes":6,"peakP99Ms":1840.5,"thresholdMs":500,"factor":2,"limitMs":1000,
             "curveFrom":"2026-11-30T10:00:00Z","curveTo":"2026-11-30T10:40:00Z",
             "pods":[{"namespace":"acme-serve","pod":"llm-0","gpus":[{"gpuUuid":"GPU-aaaa-0001","node":"gpu-a","unitKind":"VGPU",
                      "fraction":0.25,"since":"2026-11-29T00:00:00Z"}]}],
             "neighbours":[
              {"namespace":"globex-lab","pod":"notebook-2","ownerKind":"StatefulSet","ownerName":"notebook","tenant":"globex",
               "kind":"interactive","since":"2026-11-30T10:15:00Z","until":null,"gpuUuids":["GPU-aaaa-0001"],"curveGpu":"GPU-aaaa-0001",
               "curves":{"SM_ACTIVE":{"scope":"CONTAINER","points":[{"minute":"2026-11-30T10:15:00Z","mean":0.1,"max":0.2},
                                                                    {"minute":"2026-11-30T10:20:00Z","mean":0.85,"max":0.95},
                                                                    {"minute":"2026-11-30T10:30:00Z","mean":0.3,"max":0.5}]},
                         "POWER_W":{"scope":"DEVICE","points":[{"minute":"2026-11-30T10:20:00Z","mean":610,"max":690}]}}},
              {"namespace":"acme-ml","pod":"train-7","ownerKind":"Job","ownerName":"train","tenant":"acme","kind":"batch",
               "since":"2026-11-30T09:00:00Z","until":null,"gpuUuids":["GPU-aaaa-0001"],"curveGpu":"GPU-aaaa-0001",
               "curves":{"GPU_UTIL":{"scope":"DEVICE","points":[{"minute":"2026-11-30T10:00:00Z","mean":0.40,"max":0.45},
                                                              {"minute":"2026-11-30T10:30:00Z","mean":0.42,"max":0.48}]}}}],
             "latency":[{"minute":"2026-11-30T10:10:00Z","count":300,"p50Ms":110,"p95Ms":300,"p99Ms":420},
                        {"minute":"2026-11-30T10:20:00Z","count":280,"p50Ms":240,"p95Ms":1200,"p99Ms":1840.5},
                        {"minute":"2026-11-30T10:30:00Z","count":300,"p50Ms":120,"p95Ms":330,"p99Ms":480}],
             "kvCacheUsage":[],
             "suspects":[
              {"rank":1,"key":"globex-lab/notebook-2","score":0.8123,"arrival":0.9,"arrivedMinutesBefore":5,"ramp":0.75,
               "rises":[{"field":"SM_ACTIVE","before":0.1,"recent":0.85,"rise":0.75}],"reasons":["arrived 5 min before","SM_ACTIVE rose 0.75"]},
              {"rank":2,"key":"acme-ml/train-7","score":0.05,"arrival":0,"arrivedMinutesBefore":80,"ramp":0.02,"rises":[],
               "reasons":["present long before"]}],
             "gaps":[],"detectedAt":"2026-11-30T10:30:00Z","updatedAt":"2026-11-30T10:30:00Z"}""";

    static final String CSV = "period_start,period_end,tenant,allocated_gpu_hours,allocated_cost\n2026-11-01,2026-12-01,acme,120.5,361.50\n";

    private static final String ACME_LINE = """
            {"period_start":"2026-11-01","period_end":"2026-12-01","tenant":"acme","gpu_models":"NVIDIA-H100-80GB-HBM3",
             "allocated_gpu_hours":120.5,"rate":3.00,"currency":"USD","allocated_cost":361.50,"rate_card_version":"default-1",
             "normalization_policy":"max","normalization_version":"1","used_gpu_hours_showback":80.25,
             "idle_gpu_hours_showback":40.25,"used_cost_showback":240.75,"idle_cost_showback":120.75,"line_type":"usage",
             "corrects_period":null,"energy_kwh":96.400000,"energy_cost":19.28,"co2e_kg":33.740}""";
    private static final String GLOBEX_LINE = """
            {"period_start":"2026-11-01","period_end":"2026-12-01","tenant":"globex","gpu_models":"NVIDIA-A100-SXM4-80GB",
             "allocated_gpu_hours":30,"rate":2.00,"currency":"USD","allocated_cost":60.00,"rate_card_version":"default-1",
             "normalization_policy":"max","normalization_version":"1","used_gpu_hours_showback":0,
             "idle_gpu_hours_showback":30,"used_cost_showback":0.00,"idle_cost_showback":60.00,"line_type":"usage",
             "corrects_period":null,"energy_kwh":12.250000,"energy_cost":null,"co2e_kg":null}""";

    static final String TRAIN = """
            {"cluster":"lab","node":"gpu-a","gpuUuid":"GPU-aaaa-0001","namespace":"acme-ml","pod":"train-7","podUid":"u1",
             "owner":{"kind":"Job","name":"train"},"tenant":"acme","team":"vision","project":"detector",
             "unit":{"kind":"VGPU","migProfile":null,"migInstance":null,"cores":50,"memoryMiB":40960,"source":"hami"},
             "fraction":0.5,"since":"2026-11-30T09:00:00Z","until":null}""";
    static final String NOTEBOOK = """
            {"cluster":"lab","node":"gpu-a","gpuUuid":"GPU-aaaa-0001","namespace":"globex-lab","pod":"notebook-2","podUid":"u2",
             "owner":{"kind":"StatefulSet","name":"notebook"},"tenant":"globex","team":"research","project":"unassigned",
             "unit":{"kind":"VGPU","migProfile":null,"migInstance":null,"cores":25,"memoryMiB":20480,"source":"hami"},
             "fraction":0.25,"since":"2026-11-30T10:30:00Z","until":null}""";
    static final String SERVE = """
            {"cluster":"lab","node":"gpu-a","gpuUuid":"GPU-aaaa-0002","namespace":"acme-serve","pod":"llm-0","podUid":"u3",
             "owner":{"kind":"Deployment","name":"llm"},"tenant":"acme","team":"platform","project":"chat",
             "unit":{"kind":"WHOLE","migProfile":null,"migInstance":null,"cores":null,"memoryMiB":null,"source":"device-plugin"},
             "fraction":1,"since":"2026-11-29T00:00:00Z","until":null}""";
    static final String MIG = """
            {"cluster":"lab","node":"gpu-b","gpuUuid":null,"namespace":"%s","pod":"%s","podUid":"%s",
             "owner":{"kind":"Job","name":"eval"},"tenant":"%s","team":"eval","project":"eval",
             "unit":{"kind":"MIG","migProfile":"3g.40gb","migInstance":null,"cores":null,"memoryMiB":null,"source":"mig-resource"},
             "fraction":0.428571428571,"since":"2026-11-30T11:00:00Z","until":null}""";
    private static final String FLEET = "[" + TRAIN + "," + NOTEBOOK + "," + SERVE + "," + MIG.formatted("acme-eval", "eval-1", "u4", "acme") + ","
            + MIG.formatted("globex-eval", "eval-2", "u5", "globex") + "]";
    private static final String H100 = "NVIDIA-H100-80GB-HBM3";
    private static final String A100 = "NVIDIA-A100-SXM4-80GB";
    static final String LAYOUT = layout(List.of(
            node("gpu-a", H100, true, 4, 2, "1.75", card("GPU-aaaa-0001", H100, "COUNTED", "0.75", TRAIN + "," + NOTEBOOK),
                    card("GPU-aaaa-0002", H100, "COUNTED", "1", SERVE), card(null, H100, "COUNTED", "0", ""),
                    card(null, H100, "COUNTED", "0", "")),
            node("gpu-b", A100, true, 2, 1, "0.857142857142", card(null, A100, "COUNTED", "0.857142857142",
                    MIG.formatted("acme-eval", "eval-1", "u4", "acme") + "," + MIG.formatted("globex-eval", "eval-2", "u5", "globex")),
                    card(null, A100, "COUNTED", "0", ""))),
            List.of(group(A100, 1, 2, 1, "0.857142857142"), group(H100, 1, 4, 2, "1.75")));

    /** The ledger's layout at the fixtures' instant, every node on one page. */
    static String layout(List<String> nodes, List<String> groups) {
        return "{\"at\":\"" + AT + "\",\"groupBy\":\"pool\",\"totalNodes\":" + nodes.size() + ",\"offset\":0,\"limit\":50,"
                + "\"groups\":[" + String.join(",", groups) + "],\"nodes\":[" + String.join(",", nodes) + "]}";
    }

    static String node(String name, String model, boolean inInventory, int cards, int held, String heldFraction, String... gpus) {
        return "{\"cluster\":\"lab\",\"node\":\"" + name + "\",\"pool\":\"" + model + "\",\"model\":\"" + model
                + "\",\"inInventory\":" + inInventory + ",\"cards\":" + cards + ",\"held\":" + held + ",\"free\":" + (cards - held)
                + ",\"heldFraction\":" + heldFraction + ",\"gpus\":[" + String.join(",", gpus) + "],\"unplaced\":[]}";
    }

    static String card(String uuid, String model, String source, String heldFraction, String occupants) {
        return "{\"uuid\":" + (uuid == null ? "null" : "\"" + uuid + "\"") + ",\"model\":" + (model == null ? "null" : "\"" + model + "\"")
                + ",\"source\":\"" + source
                + "\",\"heldFraction\":" + heldFraction + ",\"occupants\":[" + occupants + "]}";
    }

    static String group(String pool, int nodes, int cards, int held, String heldFraction) {
        return "{\"key\":\"lab/" + pool + "\",\"group\":{\"cluster\":\"lab\",\"pool\":\"" + pool + "\"},\"nodes\":" + nodes
                + ",\"cards\":" + cards + ",\"held\":" + held + ",\"free\":" + (cards - held) + ",\"heldFraction\":" + heldFraction + "}";
    }

    private static final String CARD_1 = "[" + TRAIN + "," + NOTEBOOK + "]";
    private static final String CARD_1_ACME = "[" + TRAIN + "]";
}
