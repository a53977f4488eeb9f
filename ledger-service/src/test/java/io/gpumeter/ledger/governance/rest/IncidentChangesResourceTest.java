package io.gpumeter.ledger.governance.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.gpumeter.ledger.governance.domain.BookedChange;
import io.gpumeter.ledger.governance.repository.ChangeRepository.Scope;
import io.gpumeter.ledger.governance.repository.ChangeRepository;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every incident carries what changed before it, cluster "incchg" (no other test writes there), T 2025-07-07T00:00Z:
 * <pre>
 * gpu-y  driver 550.54.15 at T, 560.35.03 at 05:00          -> DRIVER_VERSION 05:00
 *        example.com/rev r1..r12 at 05:10 .. 05:21, one a minute -> NODE_LABEL x12
 *        example.com/rev r13 at 07:00:00                      -> NODE_LABEL 07:00
 * gpu-z  one version, nothing changes
 * device-plugin v0.14.5 at T, v0.15.0 at 05:30              -> COMPONENT_VERSION 05:30, cluster-wide
 * Xid 13 on gpu-y at 06:00  -> 10 newest of [T+05:00 - 1 d, 06:00]: the component 05:30, then r12 .. r4
 * Xid 13 on gpu-z at 06:00  -> the cluster-wide component change alone
 * Xid 13 on gpu-y at 07:00  -> the change of the same instant first: r13 07:00, then the component, r12 .. r5
 * Xid 13 on gpu-y two days later -> nothing in the day before it
 * </pre>
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class IncidentChangesResourceTest {

    static final String CLUSTER = "incchg";
    static final Instant T = Instant.parse("2025-07-07T00:00:00Z");

    @Inject
    ChangeRepository changes;

    static Instant at(int minutes) {
        return T.plus(Duration.ofMinutes(minutes));
    }

    static String node(String name, int rv, Instant observed, String driver, String rev) {
        String[] d = driver.split("\\.");
        return "{\"name\":\"" + name + "\",\"uid\":\"u-" + name + "\",\"resourceVersion\":\"" + rv + "\",\"type\":\"MODIFIED\","
                + "\"observedAt\":\"" + observed + "\",\"labels\":{\"nvidia.com/cuda.driver.major\":\"" + d[0]
                + "\",\"nvidia.com/cuda.driver.minor\":\"" + d[1] + "\",\"nvidia.com/cuda.driver.rev\":\"" + d[2] + "\""
                + (rev == null ? "" : ",\"example.com/rev\":\"" + rev + "\"") + "},\"gpus\":[]}";
    }

    static String workload(int rv, Instant observed, String version) {
        return "{\"namespace\":\"gpu-operator\",\"name\":\"nvidia-device-plugin-daemonset\",\"uid\":\"ds1\",\"kind\":\"DaemonSet\","
                + "\"component\":\"device-plugin\",\"resourceVersion\":\"" + rv + "\",\"type\":\"MODIFIED\",\"observedAt\":\""
                + observed + "\",\"images\":[\"nvcr.io/nvidia/k8s-device-plugin:" + version + "\"]}";
    }

    static String xid(String node, Instant observed) {
        return "{\"node\":\"" + node + "\",\"pciBusId\":\"0000:3b:00\",\"at\":\"" + observed + "\",\"code\":13,\"pid\":0,"
                + "\"message\":\"Xid 13\",\"source\":\"kmsg\"}";
    }

    private static boolean loaded;

    @BeforeEach
    void load() {
        if (loaded) {
            return;
        }
        loaded = true;
        List<String> nodes = new ArrayList<>();
        nodes.add(node("gpu-y", 10, T, "550.54.15", null));
        nodes.add(node("gpu-y", 20, at(300), "560.35.03", null));
        for (int i = 1; i <= 12; i++) {
            nodes.add(node("gpu-y", 20 + i, at(309 + i), "560.35.03", "r" + i));
        }
        nodes.add(node("gpu-y", 40, at(420), "560.35.03", "r13"));
        nodes.add(node("gpu-z", 10, T, "550.54.15", null));
        given().contentType(ContentType.JSON).body("{\"cluster\":\"" + CLUSTER + "\",\"nodes\":[" + String.join(",", nodes) + "]}")
                .post("/api/v1/facts").then().statusCode(200);
        given().contentType(ContentType.JSON).body("{\"cluster\":\"" + CLUSTER + "\",\"stackWorkloads\":["
                + workload(100, T, "v0.14.5") + "," + workload(110, at(330), "v0.15.0") + "],\"xids\":["
                + xid("gpu-y", at(360)) + "," + xid("gpu-z", at(360)) + "," + xid("gpu-y", at(420)) + ","
                + xid("gpu-y", at(2 * 1440 + 360)) + "]}").post("/api/v1/facts/governance").then().statusCode(200);
    }

    static ValidatableResponse incidents(String... params) {
        var request = given().queryParam("from", T.toString()).queryParam("to", T.plus(Duration.ofDays(3)).toString())
                .queryParam("cluster", CLUSTER);
        for (int i = 0; i < params.length; i += 2) {
            request = request.queryParam(params[i], params[i + 1]);
        }
        return request.get("/api/v1/failures/incidents").then().statusCode(200);
    }

    static List<String> revs(int from, int to) {
        List<String> out = new ArrayList<>();
        for (int i = from; i >= to; i--) {
            out.add("r" + i);
        }
        return out;
    }

    @Test
    void theNewestTenChangesOfItsNodeAndTheClusterWithinTheDayBefore() {
        ValidatableResponse r = incidents().body("", hasSize(4));
        r.body("[0].node", equalTo("gpu-y")).body("[0].startedAt", equalTo("2025-07-07T06:00:00Z"))
                .body("[0].changesBefore", hasSize(10))
                .body("[0].changesBefore[0].kind", equalTo("COMPONENT_VERSION"))
                .body("[0].changesBefore[0].node", equalTo(null))
                .body("[0].changesBefore[0].at", equalTo("2025-07-07T05:30:00Z"))
                .body("[0].changesBefore[0].before", equalTo("v0.14.5")).body("[0].changesBefore[0].after", equalTo("v0.15.0"))
                .body("[0].changesBefore[1..9].after", equalTo(revs(12, 4)))
                .body("[0].changesBefore[1].subject", equalTo("example.com/rev"));
        // another node's incident: the cluster-wide change alone
        r.body("[1].node", equalTo("gpu-z")).body("[1].changesBefore.kind", contains("COMPONENT_VERSION"));
        // a change at the very instant an incident starts is before it
        r.body("[2].startedAt", equalTo("2025-07-07T07:00:00Z")).body("[2].changesBefore[0].after", equalTo("r13"))
                .body("[2].changesBefore[0].at", equalTo("2025-07-07T07:00:00Z"))
                .body("[2].changesBefore[1].kind", equalTo("COMPONENT_VERSION"))
                .body("[2].changesBefore[2..9].after", equalTo(revs(12, 5)));
        r.body("[3].startedAt", equalTo("2025-07-09T06:00:00Z")).body("[3].changesBefore", empty());
    }

    @Test
    void aPageCarriesItsOwnIncidentsChanges() {
        incidents("limit", "1", "offset", "1").body("", hasSize(1)).body("[0].node", equalTo("gpu-z"))
                .body("[0].changesBefore.kind", contains("COMPONENT_VERSION"));
        given().queryParam("open", "false").queryParam("from", "2025-07-09T00:00:00Z").queryParam("to", "2025-07-10T00:00:00Z")
                .queryParam("cluster", CLUSTER).get("/api/v1/failures/incidents").then().statusCode(200)
                .body("", hasSize(1)).body("[0].changesBefore", empty());
    }

    @Test
    void aScopeOfNoNodeReadsTheClusterWideChangesAlone() {
        Instant from = T;
        Instant to = at(600);
        List<List<BookedChange>> found = changes.bulk(List.of(
                        new Scope(CLUSTER, null, from, to, Set.of(), true, 100, true, false),
                        new Scope(CLUSTER, null, from, to, Set.of(), true, 100, true)))
                .await().indefinitely().stream().map(ChangeRepository.ScopeChanges::changes).toList();
        assertEquals(List.of("device-plugin"), found.get(0).stream().map(BookedChange::subject).toList());
        assertEquals(15, found.get(1).size(), "the whole cluster: the component, the driver and 13 labels");
        assertEquals(Map.of("gpu-y", 14L), found.get(1).stream().filter(c -> c.node() != null)
                .collect(java.util.stream.Collectors.groupingBy(BookedChange::node, java.util.stream.Collectors.counting())));
    }
}
