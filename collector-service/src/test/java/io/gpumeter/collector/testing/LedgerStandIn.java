package io.gpumeter.collector.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.stubbing.StubMapping;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.gpumeter.common.testing.StandIn;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;

/**
 * ledger-service's intakes as the collector's tests see them: one {@link StandIn} that takes every batch with the
 * receipt the test gave it ("nothing new" until it gives one), keeps every request in its journal for the test to
 * read back, and refuses on purpose. What the ledger took is what it answered with a 2xx; a bundle is read as the
 * ledger reads it ({@link WholeBundles}), its metering half among the metering batches and its governance half among
 * the governance ones.
 */
public class LedgerStandIn implements QuarkusTestResourceLifecycleManager {

    public static final String FACTS = "/api/v1/facts";
    public static final String GOVERNANCE = "/api/v1/facts/governance";
    public static final String BUNDLES = "/api/v1/facts/bundles";
    public static final String LIVE_PODS = "/api/v1/facts/live-pods";
    public static final String USAGE = "/api/v1/usage";
    public static final String HOST = "/api/v1/host/minutes";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<StubMapping> REFUSALS = new CopyOnWriteArrayList<>();
    private static StandIn standIn;

    @Override
    public Map<String, String> start() {
        standIn = StandIn.start();
        reset();
        return Map.of("quarkus.rest-client.ledger.url", standIn.url());
    }

    @Override
    public void stop() {
        standIn.close();
    }

    /** Every intake answers "nothing new", and no call is remembered: each test starts its own story with this. */
    public static void reset() {
        standIn.reset();
        REFUSALS.clear();
        for (String intake : List.of(FACTS, GOVERNANCE, LIVE_PODS)) {
            standIn.answer(post(urlPathEqualTo(intake)).atPriority(10), "{\"accepted\":0,\"duplicates\":0}");
        }
        standIn.answer(post(urlPathEqualTo(BUNDLES)).atPriority(10),
                "{\"facts\":{\"accepted\":0,\"duplicates\":0},\"governance\":{\"accepted\":0,\"duplicates\":0}}");
        standIn.answer(post(urlPathEqualTo(USAGE)).atPriority(10), "{\"accepted\":0,\"duplicates\":0,\"podsBound\":0}");
        standIn.answer(post(urlPathEqualTo(HOST)).atPriority(10), "{\"stored\":0,\"unchanged\":0}");
    }

    /** The ledger answers this intake with this receipt from now on: the figures the test says it stored. */
    public static void receipt(String intake, String json) {
        standIn.answer(post(urlPathEqualTo(intake)).atPriority(5), json);
    }

    /** The usage intake answers "nothing new" only after this delay: a ledger busy storing each batch. */
    public static void usageAnsweredAfter(java.time.Duration delay) {
        standIn.answer(post(urlPathEqualTo(USAGE)).atPriority(5),
                StandIn.late(delay, "{\"accepted\":0,\"duplicates\":0,\"podsBound\":0}"));
    }

    /** The most requests the stand-in held open at once since it started, whatever their intake. */
    public static int mostOpen() {
        return standIn.mostOpen();
    }

    /** The usage intake's receipt: the samples the ledger says it counted for the first time. */
    public static void usageReceipt(int accepted) {
        receipt(USAGE, "{\"accepted\":" + accepted + ",\"duplicates\":0,\"podsBound\":0}");
    }

    /** A bundle's receipt: the metering facts and the governance facts the ledger says it stored. */
    public static void bundleReceipt(int facts, int governance) {
        receipt(BUNDLES, "{\"facts\":{\"accepted\":" + facts + ",\"duplicates\":0},\"governance\":{\"accepted\":"
                + governance + ",\"duplicates\":0}}");
    }

    /**
     * These intakes (every one when none is named) answer this status until {@link #answerAgain}, with a body that is
     * no problem document, as a ledger behind a proxy might: nothing of it is for the collector to pass on.
     */
    public static void refuse(int status, String... intakes) {
        List<String> paths = intakes.length == 0 ? List.of(FACTS, GOVERNANCE, BUNDLES, LIVE_PODS, USAGE, HOST)
                : List.of(intakes);
        for (String intake : paths) {
            REFUSALS.add(standIn.answer(post(urlPathEqualTo(intake)).atPriority(1),
                    StandIn.json(status, "{\"status\":" + status + "}")));
        }
    }

    /** The refusals lifted: the intakes answer their receipts again. */
    public static void answerAgain() {
        REFUSALS.forEach(standIn.server()::removeStubMapping);
        REFUSALS.clear();
    }

    /** Every request made to this intake, refused ones included, oldest first. */
    public static List<LoggedRequest> calls(String intake) {
        return standIn.calls(postRequestedFor(urlPathEqualTo(intake)));
    }

    /** The Authorization header of every fact batch and bundle sent, refused ones included, in order ("null": none). */
    public static List<String> authorizations() {
        return standIn.calls(postRequestedFor(urlPathMatching(FACTS + "|" + BUNDLES))).stream()
                .map(r -> String.valueOf(r.getHeader("Authorization"))).toList();
    }

    /** The metering batches the ledger took, oldest first: those sent alone and the metering halves of bundles. */
    public static List<JsonNode> metering() {
        return halves(FACTS, "facts");
    }

    /** The governance batches the ledger took, oldest first: those sent alone and the governance halves of bundles. */
    public static List<JsonNode> governance() {
        return halves(GOVERNANCE, "governance");
    }

    /** Every item of one list of the governance batches taken ("workloads", "xids", ...), in order. */
    public static List<JsonNode> governance(String list) {
        return governance().stream().flatMap(b -> b.path(list).valueStream()).toList();
    }

    /** The pods of the metering batches taken, in order. */
    public static List<JsonNode> pods() {
        return metering().stream().flatMap(b -> b.path("pods").valueStream()).toList();
    }

    /** The usage batches the ledger took, oldest first. */
    public static List<JsonNode> usage() {
        return taken(USAGE);
    }

    /** The host-minute batches the ledger took, oldest first. */
    public static List<JsonNode> hostMinutes() {
        return taken(HOST);
    }

    /** The live pod sets the ledger took, oldest first. */
    public static List<JsonNode> livePods() {
        return taken(LIVE_PODS);
    }

    /** The bodies this intake took, oldest first. */
    public static List<JsonNode> taken(String intake) {
        return standIn.taken(postRequestedFor(urlPathEqualTo(intake))).stream().map(r -> tree(r.getBody())).toList();
    }

    /** How many facts a batch holds: the items of all its lists, as the ledger counts what it stores. */
    public static int facts(JsonNode batch) {
        int facts = 0;
        for (JsonNode list : batch) {
            facts += list.isArray() ? list.size() : 0;
        }
        return facts;
    }

    private static List<JsonNode> halves(String alone, String half) {
        List<JsonNode> out = new ArrayList<>();
        for (LoggedRequest r : standIn.taken(postRequestedFor(urlPathMatching(alone + "|" + BUNDLES)))) {
            if (!r.getUrl().startsWith(BUNDLES)) {
                out.add(tree(r.getBody()));
                continue;
            }
            JsonNode part = bundle(r.getBody()).path(half);
            if (!part.isMissingNode() && !part.isNull()) {
                out.add(part);
            }
        }
        return out;
    }

    private static JsonNode bundle(byte[] body) {
        try {
            return WholeBundles.read(body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonNode tree(byte[] body) {
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
