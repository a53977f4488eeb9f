package io.gpumeter.collector.kubernetes;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.gpumeter.common.fact.ClaimResult;
import io.gpumeter.common.fact.DraDevice;
import io.gpumeter.common.fact.FactBatch;
import io.gpumeter.common.fact.PodClaim;
import io.gpumeter.common.fact.ResourceClaimFact;
import io.gpumeter.common.fact.ResourceSliceFact;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The ResourceClaim, ResourceSlice, DeviceClass and pod-claim readers on real objects and broken ones. */
class DraTranslatorsTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final Instant AT = Instant.parse("2026-10-01T15:00:00Z");

    static FactSink replay(String body) throws IOException {
        FactSink sink = new FactSink();
        new WatchStreamReader(1000).read(new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)), AT, sink);
        return sink;
    }

    static String resource(String name) throws IOException {
        try (InputStream in = DraTranslatorsTest.class.getResourceAsStream("/dra/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    static String event(String type, String objectJson) throws IOException {
        ObjectNode event = JSON.createObjectNode();
        event.put("type", type);
        event.set("object", JSON.readTree(objectJson));
        return JSON.writeValueAsString(event);
    }

    @Test
    void kubernetesOwnEveryFieldClaimIsRead() throws IOException {
        // The API's own fixture, with every field set: fields the ledger does not read are ignored.
        FactBatch batch = replay(event("MODIFIED", resource("k8s-api-resourceclaim.json"))).batch("c");
        ResourceClaimFact claim = batch.resourceClaims().get(0);
        assertEquals("uidValue", claim.uid());
        assertEquals("namespaceValue", claim.namespace());
        assertEquals(Instant.parse("2009-01-01T01:01:01Z"), claim.deletionTimestamp());
        assertEquals(1, claim.requests().size());
        assertEquals("deviceClassNameValue", claim.requests().get(0).deviceClassName());
        assertEquals(4L, claim.requests().get(0).count());
        assertTrue(claim.requests().get(0).adminAccess());
        assertTrue(claim.allocated());
        assertEquals(List.of(new ClaimResult("requestValue", "driverValue", "poolValue", "deviceValue", true)), claim.results());
        assertEquals("uidValue", claim.reservedFor().get(0).uid());
        assertEquals("resourceValue", claim.reservedFor().get(0).resource());
    }

    @Test
    void aSliceIsDatedWhenItsDevicesWerePublished() throws IOException {
        String bare = """
                {"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":"n1-gpu","uid":"u1",
                 "resourceVersion":"7","creationTimestamp":"2026-09-01T08:00:00Z"},
                 "spec":{"driver":"gpu.nvidia.com","pool":{"name":"n1","generation":1,"resourceSliceCount":1},
                         "nodeName":"n1","devices":[{"name":"gpu-0"}]}}""";
        // listed without managedFields (a replay, a minimal API server): at its creation, not at first sight
        assertEquals(Instant.parse("2026-09-01T08:00:00Z"),
                replay(event("ADDED", bare)).batch("c").resourceSlices().get(0).observedAt());
        // a modification is dated as it always was: when it was seen, managedFields naming no time
        assertEquals(AT, replay(event("MODIFIED", bare)).batch("c").resourceSlices().get(0).observedAt());
        // managedFields say when the version was written, which wins over the creation
        String written = bare.replace("\"creationTimestamp\":\"2026-09-01T08:00:00Z\"",
                "\"creationTimestamp\":\"2026-09-01T08:00:00Z\",\"managedFields\":[{\"manager\":\"gpu-kubelet-plugin\","
                        + "\"operation\":\"Update\",\"time\":\"2026-09-20T10:00:00Z\"}]");
        assertEquals(Instant.parse("2026-09-20T10:00:00Z"),
                replay(event("ADDED", written)).batch("c").resourceSlices().get(0).observedAt());
        // a creation after the first sight (a clock ahead of ours) is not believed
        assertEquals(AT, replay(event("ADDED", bare.replace("2026-09-01T08:00:00Z", "2027-01-01T00:00:00Z")))
                .batch("c").resourceSlices().get(0).observedAt());
    }

    @Test
    void kubernetesOwnEveryFieldSliceIsRead() throws IOException {
        FactBatch batch = replay(event("ADDED", resource("k8s-api-resourceslice.json"))).batch("c");
        ResourceSliceFact slice = batch.resourceSlices().get(0);
        assertEquals("driverValue", slice.driver());
        assertEquals("nameValue", slice.pool());
        assertEquals(2, slice.poolGeneration());
        assertEquals("nodeNameValue", slice.nodeName());
        DraDevice device = slice.devices().get(0);
        // An attribute has exactly one value; in the fixture all are set, and the string wins.
        assertEquals(Map.of("attributesKey", "stringValue"), device.attributes());
        assertEquals(Map.of("capacityKey", "0"), device.capacity());
    }

    @Test
    void nvidiaDriverStreamIsReadWhole() throws IOException {
        FactSink sink = replay(resource("nvidia-dra-stream.ndjson"));
        FactBatch batch = sink.batch("c");
        assertEquals(Map.of(), sink.skippedByReason());
        assertEquals(2, batch.deviceClasses().size());
        assertEquals("device.driver == 'gpu.nvidia.com' && device.attributes['gpu.nvidia.com'].type == 'gpu'",
                batch.deviceClasses().get(0).selectors().get(0));
        assertEquals("nvidia.com/gpu", batch.deviceClasses().get(0).extendedResourceName());
        ResourceSliceFact slice = batch.resourceSlices().get(0);
        assertEquals("gpu.nvidia.com", slice.driver());
        assertEquals(5, slice.devices().size());
        DraDevice mig = slice.devices().stream().filter(d -> d.name().equals("gpu-1-mig-3g40gb-2-4")).findFirst().orElseThrow();
        assertEquals("mig", mig.attributes().get("type"));
        assertEquals("3g.40gb", mig.attributes().get("profile"));
        assertEquals("GPU-5c1b7a5e-0d1f-4c57-9b59-2f1c1e0d0001", mig.attributes().get("parentUUID"));
        assertEquals("8.0.0", mig.attributes().get("cudaComputeCapability"));
        assertEquals("40192Mi", mig.capacity().get("memory"));
        assertEquals(9, batch.resourceClaims().size());
        assertEquals(12, batch.pods().size(), "pods with claims and no GPU resources are metered");
        PodClaim generated = batch.pods().stream().filter(p -> p.name().equals("whole")).findFirst().orElseThrow().claims().get(0);
        assertEquals(new PodClaim("gpu", "whole-gpu-x7k2p", "single-gpu"), generated);
        ResourceClaimFact admin = batch.resourceClaims().stream().filter(c -> c.name().equals("mon-c")).findFirst().orElseThrow();
        assertTrue(admin.requests().get(0).adminAccess());
        assertTrue(admin.results().get(0).adminAccess());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "claim of v1beta2 | {\"apiVersion\":\"resource.k8s.io/v1beta2\",\"kind\":\"ResourceClaim\",\"metadata\":{\"name\":\"c\",\"namespace\":\"n\",\"uid\":\"u\",\"resourceVersion\":\"1\"}} | ResourceClaim of resource.k8s.io/v1beta2 not metered; only resource.k8s.io/v1",
            "slice without apiVersion | {\"kind\":\"ResourceSlice\",\"metadata\":{\"name\":\"s\",\"resourceVersion\":\"1\"}} | ResourceSlice of no apiVersion not metered; only resource.k8s.io/v1",
            "claim without uid | {\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\",\"metadata\":{\"name\":\"c\",\"namespace\":\"n\",\"resourceVersion\":\"1\"}} | no metadata.uid",
            "claim without namespace | {\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\",\"metadata\":{\"name\":\"c\",\"uid\":\"u\",\"resourceVersion\":\"1\"}} | no metadata.namespace",
            "result without device | {\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\",\"metadata\":{\"name\":\"c\",\"namespace\":\"n\",\"uid\":\"u\",\"resourceVersion\":\"1\"},\"status\":{\"allocation\":{\"devices\":{\"results\":[{\"request\":\"gpu\",\"driver\":\"gpu.nvidia.com\",\"pool\":\"p\"}]}}}} | ResourceClaim allocation result without driver, pool or device",
            "request without name | {\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\",\"metadata\":{\"name\":\"c\",\"namespace\":\"n\",\"uid\":\"u\",\"resourceVersion\":\"1\"},\"spec\":{\"devices\":{\"requests\":[{\"exactly\":{\"deviceClassName\":\"gpu.nvidia.com\"}}]}}} | ResourceClaim without spec.devices.requests[].name",
            "request of neither form | {\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\",\"metadata\":{\"name\":\"c\",\"namespace\":\"n\",\"uid\":\"u\",\"resourceVersion\":\"1\"},\"spec\":{\"devices\":{\"requests\":[{\"name\":\"gpu\"}]}}} | ResourceClaim request with neither exactly nor firstAvailable",
            "negative count | {\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\",\"metadata\":{\"name\":\"c\",\"namespace\":\"n\",\"uid\":\"u\",\"resourceVersion\":\"1\"},\"spec\":{\"devices\":{\"requests\":[{\"name\":\"gpu\",\"exactly\":{\"deviceClassName\":\"gpu.nvidia.com\",\"count\":-1}}]}}} | ResourceClaim request with a negative count",
            "slice without driver | {\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceSlice\",\"metadata\":{\"name\":\"s\",\"resourceVersion\":\"1\"},\"spec\":{\"pool\":{\"name\":\"p\"}}} | ResourceSlice without spec.driver",
            "slice without pool | {\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceSlice\",\"metadata\":{\"name\":\"s\",\"resourceVersion\":\"1\"},\"spec\":{\"driver\":\"gpu.nvidia.com\"}} | ResourceSlice without spec.pool.name",
            "device without name | {\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceSlice\",\"metadata\":{\"name\":\"s\",\"resourceVersion\":\"1\"},\"spec\":{\"driver\":\"d\",\"pool\":{\"name\":\"p\"},\"devices\":[{\"attributes\":{}}]}} | ResourceSlice device without name",
            "class without resourceVersion | {\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"DeviceClass\",\"metadata\":{\"name\":\"gpu.nvidia.com\"}} | no metadata.resourceVersion",
            "claim count not a number | {\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\",\"metadata\":{\"name\":\"c\",\"namespace\":\"n\",\"uid\":\"u\",\"resourceVersion\":\"1\"},\"spec\":{\"devices\":{\"requests\":[{\"name\":\"gpu\",\"exactly\":{\"count\":\"many\"}}]}}} | unreadable ResourceClaim",
            "pod claim without name | {\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"n\",\"uid\":\"u\",\"resourceVersion\":\"1\"},\"spec\":{\"containers\":[{\"name\":\"a\"}],\"resourceClaims\":[{\"resourceClaimName\":\"c\"}]}} | spec.resourceClaims[] without name",
    })
    void brokenObjectsAreSkippedWithAReason(String name, String object, String reason) throws IOException {
        FactSink sink = replay(event("ADDED", object));
        assertEquals(0, sink.facts(), name);
        assertEquals(Map.of(reason, 1), sink.skippedByReason(), name);
    }

    @Test
    void aTemplatePodBeforeItsClaimIsGeneratedNamesNoClaimYet() throws IOException {
        Pod pod = JSON.readValue("{\"metadata\":{\"name\":\"p\",\"namespace\":\"n\",\"uid\":\"u\",\"resourceVersion\":\"1\"},"
                + "\"spec\":{\"containers\":[{\"name\":\"a\"}],\"resourceClaims\":[{\"name\":\"gpu\",\"resourceClaimTemplateName\":\"t\"}]}}", Pod.class);
        List<PodClaim> claims = PodTranslator.claims(pod);
        assertEquals(1, claims.size());
        assertNull(claims.get(0).claimName());
        assertEquals("t", claims.get(0).templateName());
        Pod plain = JSON.readValue("{\"metadata\":{\"name\":\"p\",\"namespace\":\"n\",\"uid\":\"u\",\"resourceVersion\":\"1\"},"
                + "\"spec\":{\"containers\":[{\"name\":\"a\"}]}}", Pod.class);
        assertFalse(replay(event("ADDED", JSON.writeValueAsString(plain))).skippedByReason().isEmpty(), "no GPU, no claim: skipped");
    }
}
