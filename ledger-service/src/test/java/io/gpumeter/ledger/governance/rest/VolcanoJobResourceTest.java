package io.gpumeter.ledger.governance.rest;

import io.gpumeter.common.testing.Contract;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;

/**
 * The Volcano Jobs read of cluster "vc" over 2031-03-02 (UTC), every figure worked out by hand:
 * <pre>
 * vision (tenant umbrella), queue q-vision
 *   train-a    created 01:00, Running 01:10, Completed 05:10: wait 600 s. Pods worker-0, 2 cards 01:08-05:08 (8 h),
 *              worker-1, 1 card 01:09-05:09 (4 h): 12 GPU-hours. A batch/v1 Job of the same name holds 1 card
 *              02:00-03:00: its pod carries no volcano.sh/job-name label, so it is not train-a's.
 *   eval-c     created 09:00, no Running version, Completed 13:00. Its pod holds 1 card 11:59-12:59 (1 h), so it
 *              ran at 11:59: wait 10740 s. An earlier eval-c (finished 2031-03-01) had a pod 03-01 10:00-11:00, which
 *              began before this one was created: not this one's.
 *   run-on     created 14:00, Running 14:05, a pod holding 1 card from 14:04: still running, not counted.
 * nlp (tenant acme), queue q-nlp
 *   bert-ft    created 06:00, Running 06:30 (wait 1800 s), restarted twice (retryCount 2), Failed 08:10. Three pods
 *              one after the other, each 1 card for 31 min: 93 min = 1.55 GPU-hours.
 *   abort-d    created 15:00, Aborted 15:30, never ran, no pods: 0 GPU-hours, wait unknown.
 *   resumed-e  created 16:00, Running 16:05, Aborted 17:00, resumed, Completed 2031-03-03 02:00: stood in a final
 *              phase on 03-02, but has not finished there.
 * q-vision: 2 finished, 2 Completed, success 1, 13 GPU-hours, 6.5 per job, 6.5 per completed job, no retries;
 *           waits 600 and 10740 s: p50 rank 1 = 600, p95 rank 2 = 10740, longest vision/eval-c.
 * q-nlp:    2 finished, 1 Failed and 1 Aborted, success 0, 1.55 GPU-hours, 0.775 per job, none completed, 2 retries
 *           in 1 job; one known wait: 1800 s.
 * </pre>
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class VolcanoJobResourceTest {

    private static final String DAY = "2031-03-02T";
    private static boolean loaded;

    static String namespace(String name, String tenant) {
        return """
                {"name":"%s","uid":"ns-%s","resourceVersion":"1","type":"ADDED","observedAt":"2031-01-01T00:00:00Z",
                 "labels":{"gpumeter.io/tenant":"%s"},"labelTimes":{"gpumeter.io/tenant":"2031-01-01T00:00:00Z"}}
                """.formatted(name, name, tenant);
    }

    /** A pod of a Job named {@code job}: Volcano's when {@code volcano}; held from {@code from} to {@code to} (null: on). */
    static String pod(String uid, String namespace, String name, String job, boolean volcano, int cards, String from, String to) {
        String labels = volcano ? "{\"volcano.sh/job-name\":\"" + job + "\",\"volcano.sh/job-namespace\":\"" + namespace
                + "\",\"volcano.sh/queue-name\":\"q\"}" : "{\"batch.kubernetes.io/job-name\":\"" + job + "\",\"job-name\":\"" + job + "\"}";
        String end = to == null ? "\"phase\":\"Running\""
                : "\"phase\":\"Succeeded\",\"allTerminated\":true,\"lastFinishedAt\":\"" + to + "\"";
        return """
                {"uid":"%s","namespace":"%s","name":"%s","resourceVersion":"%s","type":"MODIFIED","observedAt":"%s",
                 "createdAt":"%s","scheduledAt":"%s","nodeName":"vc-node","owner":{"kind":"Job","name":"%s"},"labels":%s,
                 "gpuResources":{"nvidia.com/gpu":%d},%s}
                """.formatted(uid, namespace, name, uid.hashCode() & 0xffff, to == null ? from : to, from, from, job, labels,
                cards, end);
    }

    /** One version of a Volcano Job. */
    static String job(String uid, String namespace, String name, String queue, int rv, String created, String phase,
                      String reason, String changedAt, int retries) {
        return """
                {"uid":"%s","namespace":"%s","name":"%s","resourceVersion":"%d","type":"MODIFIED","observedAt":"%s",
                 "createdAt":"%s","queue":"%s","minAvailable":1,"schedulerName":"volcano","phase":"%s","phaseReason":%s,
                 "phaseChangedAt":%s,"retryCount":%d}
                """.formatted(uid, namespace, name, rv, changedAt, created, queue, phase,
                reason == null ? "null" : "\"" + reason + "\"", "\"" + changedAt + "\"", retries);
    }

    static String at(String time) {
        return DAY + time + ":00Z";
    }

    @BeforeEach
    void load() {
        if (loaded) {
            return;
        }
        loaded = true;
        List<String> pods = List.of(
                pod("a-w0", "vision", "train-a-worker-0", "train-a", true, 2, at("01:08"), at("05:08")),
                pod("a-w1", "vision", "train-a-worker-1", "train-a", true, 1, at("01:09"), at("05:09")),
                pod("a-batch", "vision", "train-a-x7k2p", "train-a", false, 1, at("02:00"), at("03:00")),
                pod("c-0", "vision", "eval-c-worker-0", "eval-c", true, 1, "2031-03-01T10:00:00Z", "2031-03-01T11:00:00Z"),
                pod("c-1", "vision", "eval-c-worker-0", "eval-c", true, 1, at("11:59"), at("12:59")),
                pod("r-1", "vision", "run-on-worker-0", "run-on", true, 1, at("14:04"), null),
                pod("b-1", "nlp", "bert-ft-worker-0", "bert-ft", true, 1, at("06:29"), at("07:00")),
                pod("b-2", "nlp", "bert-ft-worker-0", "bert-ft", true, 1, at("07:04"), at("07:35")),
                pod("b-3", "nlp", "bert-ft-worker-0", "bert-ft", true, 1, at("07:39"), at("08:10")));
        given().contentType(ContentType.JSON).body("{\"cluster\":\"vc\",\"namespaces\":[" + namespace("vision", "umbrella")
                        + "," + namespace("nlp", "acme") + "],\"pods\":[" + String.join(",", pods) + "]}")
                .post("/api/v1/facts").then().statusCode(200);
        List<String> jobs = new ArrayList<>();
        jobs.add(job("j-a", "vision", "train-a", "q-vision", 10, at("01:00"), "Pending", null, at("01:00"), 0));
        jobs.add(job("j-a", "vision", "train-a", "q-vision", 11, at("01:00"), "Running", null, at("01:10"), 0));
        jobs.add(job("j-a", "vision", "train-a", "q-vision", 12, at("01:00"), "Completed", null, at("05:10"), 0));
        jobs.add(job("j-c0", "vision", "eval-c", "q-vision", 5, "2031-03-01T09:00:00Z", "Running", null, "2031-03-01T10:00:00Z", 0));
        jobs.add(job("j-c0", "vision", "eval-c", "q-vision", 6, "2031-03-01T09:00:00Z", "Completed", null, "2031-03-01T11:00:00Z", 0));
        jobs.add(job("j-c", "vision", "eval-c", "q-vision", 20, at("09:00"), "Pending", null, at("09:00"), 0));
        jobs.add(job("j-c", "vision", "eval-c", "q-vision", 21, at("09:00"), "Completed", null, at("13:00"), 0));
        jobs.add(job("j-r", "vision", "run-on", "q-vision", 30, at("14:00"), "Running", null, at("14:05"), 0));
        jobs.add(job("j-b", "nlp", "bert-ft", "q-nlp", 40, at("06:00"), "Pending", null, at("06:00"), 0));
        jobs.add(job("j-b", "nlp", "bert-ft", "q-nlp", 41, at("06:00"), "Running", null, at("06:30"), 0));
        jobs.add(job("j-b", "nlp", "bert-ft", "q-nlp", 42, at("06:00"), "Restarting", "PodFailed", at("07:00"), 1));
        jobs.add(job("j-b", "nlp", "bert-ft", "q-nlp", 43, at("06:00"), "Running", null, at("07:05"), 1));
        jobs.add(job("j-b", "nlp", "bert-ft", "q-nlp", 44, at("06:00"), "Restarting", "PodFailed", at("07:35"), 2));
        jobs.add(job("j-b", "nlp", "bert-ft", "q-nlp", 45, at("06:00"), "Running", null, at("07:40"), 2));
        jobs.add(job("j-b", "nlp", "bert-ft", "q-nlp", 46, at("06:00"), "Failed", "PodFailed", at("08:10"), 2));
        jobs.add(job("j-d", "nlp", "abort-d", "q-nlp", 50, at("15:00"), "Pending", null, at("15:00"), 0));
        jobs.add(job("j-d", "nlp", "abort-d", "q-nlp", 51, at("15:00"), "Aborted", "AbortJob", at("15:30"), 0));
        jobs.add(job("j-e", "nlp", "resumed-e", "q-nlp", 60, at("16:00"), "Running", null, at("16:05"), 0));
        jobs.add(job("j-e", "nlp", "resumed-e", "q-nlp", 61, at("16:00"), "Aborted", "AbortJob", at("17:00"), 0));
        jobs.add(job("j-e", "nlp", "resumed-e", "q-nlp", 62, at("16:00"), "Running", null, at("18:00"), 0));
        jobs.add(job("j-e", "nlp", "resumed-e", "q-nlp", 63, at("16:00"), "Completed", null, "2031-03-03T02:00:00Z", 0));
        given().contentType(ContentType.JSON).body("{\"cluster\":\"vc\",\"volcanoJobs\":[" + String.join(",", jobs) + "]}")
                .post("/api/v1/facts/governance").then().statusCode(200).body("accepted", equalTo(jobs.size()));
    }

    static ValidatableResponse read(Map<String, String> more) {
        Map<String, String> q = new HashMap<>(Map.of("from", at("00:00"), "to", "2031-03-03T00:00:00Z", "cluster", "vc"));
        q.putAll(more);
        return given().queryParams(q).get("/api/v1/volcano-jobs").then();
    }

    @Test
    void perQueueEveryFigureOfTheJobsThatFinishedInTheWindow() {
        String perQueue = read(Map.of()).statusCode(200).body("$", hasSize(2))
                .body("[0].groupBy", equalTo("queue")).body("[0].key", equalTo("q-nlp"))
                .body("[0].finished", equalTo(2)).body("[0].states", equalTo(Map.of("Aborted", 1, "Failed", 1)))
                .body("[0].successRate", equalTo(0)).body("[0].gpuHours", equalTo(1.55f))
                .body("[0].gpuHoursPerJob", equalTo(0.775f)).body("[0].gpuHoursPerCompletedJob", nullValue())
                .body("[0].retries", equalTo(2)).body("[0].retriedJobs", equalTo(1))
                .body("[0].queueing.jobs", equalTo(1)).body("[0].queueing.p50Seconds", equalTo(1800))
                .body("[0].queueing.p95Seconds", equalTo(1800)).body("[0].queueing.maxSeconds", equalTo(1800))
                .body("[0].queueing.longestJob", equalTo("nlp/bert-ft"))
                // the most recently finished first
                .body("[0].jobs.name", equalTo(List.of("abort-d", "bert-ft")))
                .body("[0].jobs[0].state", equalTo("Aborted")).body("[0].jobs[0].reason", equalTo("AbortJob"))
                .body("[0].jobs[0].gpuHours", equalTo(0)).body("[0].jobs[0].pods", equalTo(0))
                .body("[0].jobs[0].runningAt", nullValue()).body("[0].jobs[0].waitSeconds", nullValue())
                .body("[0].jobs[0].tenant", equalTo("acme")).body("[0].jobs[0].finishedAt", equalTo(at("15:30")))
                .body("[0].jobs[1].state", equalTo("Failed")).body("[0].jobs[1].uid", equalTo("j-b"))
                .body("[0].jobs[1].gpuHours", equalTo(1.55f)).body("[0].jobs[1].pods", equalTo(3))
                .body("[0].jobs[1].retries", equalTo(2)).body("[0].jobs[1].waitSeconds", equalTo(1800))
                .body("[0].jobs[1].createdAt", equalTo(at("06:00"))).body("[0].jobs[1].runningAt", equalTo(at("06:30")))
                .body("[0].jobs[1].finishedAt", equalTo(at("08:10"))).body("[0].jobs[1].queue", equalTo("q-nlp"))
                .body("[0].jobs[1].cluster", equalTo("vc")).body("[0].jobs[1].namespace", equalTo("nlp"))

                .body("[1].key", equalTo("q-vision")).body("[1].finished", equalTo(2))
                .body("[1].states", equalTo(Map.of("Completed", 2))).body("[1].successRate", equalTo(1))
                .body("[1].gpuHours", equalTo(13)).body("[1].gpuHoursPerJob", equalTo(6.5f))
                .body("[1].gpuHoursPerCompletedJob", equalTo(6.5f)).body("[1].retries", equalTo(0))
                .body("[1].retriedJobs", equalTo(0))
                .body("[1].queueing.jobs", equalTo(2)).body("[1].queueing.p50Seconds", equalTo(600))
                .body("[1].queueing.p95Seconds", equalTo(10740)).body("[1].queueing.maxSeconds", equalTo(10740))
                .body("[1].queueing.longestJob", equalTo("vision/eval-c"))
                .body("[1].jobs.name", equalTo(List.of("eval-c", "train-a")))
                // eval-c never showed Running: its pod's first card dates its start
                .body("[1].jobs[0].uid", equalTo("j-c")).body("[1].jobs[0].gpuHours", equalTo(1))
                .body("[1].jobs[0].pods", equalTo(1)).body("[1].jobs[0].runningAt", equalTo(at("11:59")))
                .body("[1].jobs[0].waitSeconds", equalTo(10740)).body("[1].jobs[0].tenant", equalTo("umbrella"))
                // the batch/v1 Job of the same name is not counted
                .body("[1].jobs[1].gpuHours", equalTo(12)).body("[1].jobs[1].pods", equalTo(2))
                .body("[1].jobs[1].waitSeconds", equalTo(600)).body("[1].jobs[1].state", equalTo("Completed")).extract().asString();
        Contract.record("ledger", "volcano-jobs", perQueue); // the console's Queues page lists each queue's jobs
    }

    @Test
    void perNamespaceAndPerTenantTheSameJobs() {
        read(Map.of("groupBy", "namespace")).statusCode(200).body("key", equalTo(List.of("nlp", "vision")))
                .body("groupBy", equalTo(List.of("namespace", "namespace"))).body("finished", equalTo(List.of(2, 2)));
        read(Map.of("groupBy", "tenant")).statusCode(200).body("key", equalTo(List.of("acme", "umbrella")))
                .body("[1].gpuHours", equalTo(13)).body("[1].jobs.name", equalTo(List.of("eval-c", "train-a")));
    }

    @Test
    void aTenantReadsOnlyTheJobsOfItsOwnNamespaces() {
        read(Map.of("tenant", "acme")).statusCode(200).body("$", hasSize(1)).body("[0].key", equalTo("q-nlp"))
                .body("[0].jobs.tenant", equalTo(List.of("acme", "acme")));
        read(Map.of("tenant", "umbrella", "groupBy", "namespace")).statusCode(200).body("key", equalTo(List.of("vision")));
        read(Map.of("tenant", "globex")).statusCode(200).body("$", hasSize(0));
    }

    @Test
    void aJobIsCountedInTheWindowItFinishedIn() {
        // resumed-e finished on 03-03; the earlier eval-c on 03-01
        read(Map.of("from", "2031-03-03T00:00:00Z", "to", "2031-03-04T00:00:00Z")).statusCode(200).body("$", hasSize(1))
                .body("[0].key", equalTo("q-nlp")).body("[0].states", equalTo(Map.of("Completed", 1)))
                .body("[0].jobs[0].name", equalTo("resumed-e")).body("[0].jobs[0].waitSeconds", equalTo(300))
                .body("[0].successRate", equalTo(1)).body("[0].gpuHoursPerCompletedJob", equalTo(0));
        read(Map.of("from", "2031-03-01T00:00:00Z", "to", "2031-03-02T00:00:00Z")).statusCode(200)
                .body("[0].jobs[0].uid", equalTo("j-c0")).body("[0].jobs[0].gpuHours", equalTo(1))
                .body("[0].jobs[0].waitSeconds", equalTo(3600));
        read(Map.of("cluster", "elsewhere")).statusCode(200).body("$", hasSize(0));
    }

    @Test
    void groupsListTheirFirstJobsAndArePaged() {
        read(Map.of("jobsPerGroup", "1")).statusCode(200).body("finished", equalTo(List.of(2, 2)))
                .body("[0].jobs.name", equalTo(List.of("abort-d"))).body("[1].jobs.name", equalTo(List.of("eval-c")));
        read(Map.of("jobsPerGroup", "0")).statusCode(200).body("[1].jobs", hasSize(0)).body("[1].gpuHours", equalTo(13));
        read(Map.of("limit", "1", "offset", "1")).statusCode(200).header("X-Total-Count", "2")
                .body("$", hasSize(1)).body("[0].key", equalTo("q-vision"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
            "from;;from is required",
            "from;yesterday;from must be an RFC 3339 timestamp",
            "to;2031-03-01T00:00:00Z;to must be after from",
            "to;2032-04-10T00:00:00Z;at most 400 days",
            "groupBy;pod;groupBy must be one of queue, namespace, tenant",
            "jobsPerGroup;many;jobsPerGroup must be a whole number",
            "jobsPerGroup;1001;jobsPerGroup must be between 0 and 1000",
            "jobsPerGroup;-1;jobsPerGroup must be between 0 and 1000",
            "limit;0;limit must be between 1 and 10000"})
    void badInputIsAProblemNamingTheField(String field, String value, String detail) {
        read(Map.of(field, value == null ? "" : value)).statusCode(400).contentType("application/problem+json")
                .body("field", equalTo(field)).body("detail", containsString(detail));
    }
}
