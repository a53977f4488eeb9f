package io.gpumeter.ledger.demand.rest;

import io.restassured.http.ContentType;

import static io.restassured.RestAssured.given;

/**
 * A small history of cluster "dmd", 2 to 5 June 2025 (UTC), posted through the ledger's own intakes. Every figure
 * {@link DemandResourceTest} checks is worked out from it by hand there.
 */
final class DemandFixture {

    static final String CLUSTER = "dmd";
    static final String A100_GFD = "NVIDIA-A100-SXM4-80GB";
    static final String A100_SMI = "NVIDIA A100-SXM4-80GB";
    static final String H100 = "NVIDIA-H100-80GB-HBM3";
    static final String D = "2025-06-0";

    private DemandFixture() {
    }

    static void post() {
        given().contentType(ContentType.JSON).body(facts()).post("/api/v1/facts").then().statusCode(200);
        given().contentType(ContentType.JSON).body(governance()).post("/api/v1/facts/governance").then().statusCode(200);
    }

    static String node(String name, String labels, String gpus) {
        return """
                {"name":"%s","uid":"u-%s","resourceVersion":"1","type":"ADDED","observedAt":"2025-06-01T00:00:00Z",
                 "labels":%s,"gpus":[%s]}""".formatted(name, name, labels, gpus);
    }

    static String gpu(String uuid, String model, int split) {
        return """
                {"uuid":"%s","model":"%s","memoryMib":81920,"cores":100,"splitCount":%d}""".formatted(uuid, model, split);
    }

    /** A version of a pod; {@code scheduled} null while it waits, {@code end} non-null once its containers ended. */
    static String pod(String uid, String ns, String rv, String type, String observed, String created, String scheduled,
                      String node, String end, String owner, String labels, String resources, String more) {
        return """
                {"uid":"%s","namespace":"%s","name":"%s","resourceVersion":"%s","type":"%s","observedAt":"%s",
                 "createdAt":"%s","scheduledAt":%s,"nodeName":%s,"phase":"%s","allTerminated":%s,"lastFinishedAt":%s,
                 "owner":%s,"labels":%s,"gpuResources":%s%s}""".formatted(uid, ns, uid, rv, type, observed, created,
                quoted(scheduled), quoted(node), end != null ? "Succeeded" : scheduled != null ? "Running" : "Pending",
                end != null, quoted(end), owner, labels, resources, more);
    }

    /** A pod that ran from creation (scheduled at once) until {@code end}. */
    static String ran(String uid, String ns, String node, String start, String end, String owner, String labels,
                      String resources, String more) {
        return pod(uid, ns, "2", "MODIFIED", end, start, start, node, end, owner, labels, resources, more);
    }

    static String owner(String kind, String name, String apiVersion) {
        return """
                {"kind":"%s","name":"%s","apiVersion":"%s"}""".formatted(kind, name, apiVersion);
    }

    static String facts() {
        String whole1 = "{\"nvidia.com/gpu\":1}";
        String a1Labels = "{\"nvidia.com/gpu.product\":\"" + A100_GFD + "\",\"nvidia.com/gpu.memory\":\"81920\"}";
        String a2Labels = "{\"nvidia.com/gpu.product\":\"" + A100_SMI + "\",\"nvidia.com/gpu.memory\":\"81920\","
                + "\"nvidia.com/mig.strategy\":\"mixed\"}";
        String h1Labels = "{\"nvidia.com/gpu.product\":\"" + H100 + "\",\"nvidia.com/gpu.memory\":\"81920\"}";
        String deployment = owner("Deployment", "llm-chat", "apps/v1");
        String pods = String.join(",",
                // one service, two ReplicaSets (the collector reports each pod's as the Deployment)
                ran("dmd-chat-a", "acme-prod", "dm-a1", D + "2T00:00:00Z", D + "2T12:00:00Z", deployment,
                        "{\"pod-template-hash\":\"7d9f8\"}", whole1, ""),
                ran("dmd-chat-b", "acme-prod", "dm-a1", D + "2T12:00:00Z", D + "3T06:00:00Z", deployment,
                        "{\"pod-template-hash\":\"5c4b2\"}", whole1, ""),
                ran("dmd-embed", "acme-prod", "dm-a2", D + "3T00:00:00Z", D + "3T14:00:00Z",
                        owner("Deployment", "embed", "apps/v1"), "{}", "{\"nvidia.com/mig-3g.40gb\":1}", ""),
                ran("dmd-nb", "notebooks", "dm-a1", D + "3T08:00:00Z", D + "3T10:00:00Z", "null",
                        "{\"component\":\"singleuser-server\",\"app\":\"jupyterhub\"}", whole1, ""),
                // a Volcano Job's pod: created 23:30, placed at midnight with its gang
                pod("dmd-mpi", "research", "1", "ADDED", D + "4T23:30:00Z", D + "4T23:30:00Z", null, null, null,
                        owner("Job", "mpi", "batch.volcano.sh/v1alpha1"), "{}", "{\"nvidia.com/gpu\":2}", ""),
                pod("dmd-mpi", "research", "2", "MODIFIED", D + "5T03:00:00Z", D + "4T23:30:00Z", D + "5T00:00:00Z",
                        "dm-a1", D + "5T03:00:00Z", owner("Job", "mpi", "batch.volcano.sh/v1alpha1"), "{}",
                        "{\"nvidia.com/gpu\":2}", ""),
                // a batch/v1 Job's pod: waits 04:00 to 06:00, runs to 08:00
                pod("dmd-etl", "batchy", "1", "ADDED", D + "5T04:00:00Z", D + "5T04:00:00Z", null, null, null,
                        owner("Job", "etl", "batch/v1"), "{}", whole1, ""),
                pod("dmd-etl", "batchy", "2", "MODIFIED", D + "5T08:00:00Z", D + "5T04:00:00Z", D + "5T06:00:00Z",
                        "dm-a1", D + "5T08:00:00Z", owner("Job", "etl", "batch/v1"), "{}", whole1, ""),
                ran("dmd-bert", "research", "dm-h1", D + "2T10:00:00Z", D + "2T14:00:00Z",
                        owner("PyTorchJob", "bert", "kubeflow.org/v1"), "{}",
                        "{\"nvidia.com/gpu\":1,\"nvidia.com/gpumem\":20480,\"nvidia.com/gpucores\":50}",
                        ",\"vgpus\":[{\"container\":0,\"uuid\":\"GPU-DH1\",\"type\":\"NVIDIA\",\"memoryMib\":20480,\"cores\":50}],"
                                + "\"hamiBindPhase\":\"success\",\"hamiNode\":\"dm-h1\""),
                // a JobSet's worker holding a card through a ResourceClaim
                ran("dmd-ft", "research", "dm-d1", D + "2T06:00:00Z", D + "2T08:00:00Z",
                        owner("Job", "ft-workers-0", "batch/v1"), "{\"jobset.sigs.k8s.io/jobset-name\":\"ft\"}", "{}",
                        ",\"claims\":[{\"name\":\"gpu\",\"claimName\":\"ft-c\"}]"),
                // never placed: waits, then is deleted
                pod("dmd-wait-h", "research", "1", "ADDED", D + "3T10:00:00Z", D + "3T10:00:00Z", null, null, null,
                        owner("PyTorchJob", "big", "kubeflow.org/v1"), "{}", "{\"nvidia.com/gpu\":4}", ""),
                pod("dmd-wait-h", "research", "2", "DELETED", D + "3T13:00:00Z", D + "3T10:00:00Z", null, null, null,
                        owner("PyTorchJob", "big", "kubeflow.org/v1"), "{}", "{\"nvidia.com/gpu\":4}",
                        ",\"deletionTimestamp\":\"" + D + "3T13:00:00Z\""),
                pod("dmd-wait-k", "research", "1", "ADDED", D + "3T11:00:00Z", D + "3T11:00:00Z", null, null, null,
                        "null", "{\"kueue.x-k8s.io/queue-name\":\"training\"}", "{\"nvidia.com/gpu\":2}", ""),
                pod("dmd-wait-k", "research", "2", "DELETED", D + "3T12:30:00Z", D + "3T11:00:00Z", null, null, null,
                        "null", "{\"kueue.x-k8s.io/queue-name\":\"training\"}", "{\"nvidia.com/gpu\":2}",
                        ",\"deletionTimestamp\":\"" + D + "3T12:30:00Z\""),
                pod("dmd-wait-x", "research", "1", "ADDED", D + "3T10:30:00Z", D + "3T10:30:00Z", null, null, null,
                        "null", "{}", whole1, ""),
                pod("dmd-wait-x", "research", "2", "DELETED", D + "3T11:30:00Z", D + "3T10:30:00Z", null, null, null,
                        "null", "{}", whole1, ",\"deletionTimestamp\":\"" + D + "3T11:30:00Z\""));
        String claim = """
                {"uid":"c-ft","namespace":"research","name":"ft-c","resourceVersion":"20","type":"ADDED",
                 "observedAt":"2025-06-02T06:00:00Z",
                 "requests":[{"name":"gpu","deviceClassName":"gpu.nvidia.com","count":1,"adminAccess":false}],
                 "allocated":true,"results":[{"request":"gpu","driver":"gpu.nvidia.com","pool":"dm-d1","device":"gpu-0"}],
                 "reservedFor":[{"resource":"pods","name":"dmd-ft","uid":"dmd-ft"}]}""";
        String slice = """
                {"name":"dm-d1-gpu.nvidia.com","resourceVersion":"10","type":"ADDED","observedAt":"2025-06-01T00:00:00Z",
                 "driver":"gpu.nvidia.com","pool":"dm-d1","poolGeneration":1,"nodeName":"dm-d1",
                 "devices":[{"name":"gpu-0","attributes":{"type":"gpu","uuid":"GPU-DD0","productName":"%s"},
                             "capacity":{"memory":"80Gi"}}]}""".formatted(A100_SMI);
        return "{\"cluster\":\"" + CLUSTER + "\",\"nodes\":["
                + node("dm-a1", a1Labels, gpu("GPU-DA1", A100_GFD, 1) + "," + gpu("GPU-DA2", A100_GFD, 1)) + ","
                + node("dm-a2", a2Labels, "") + ","
                + node("dm-h1", h1Labels, gpu("GPU-DH1", H100, 10)) + ","
                + node("dm-d1", "{}", "") + "],"
                + "\"pods\":[" + pods + "],\"resourceClaims\":[" + claim + "],\"resourceSlices\":[" + slice + "]}";
    }

    /** A governance view of a pod: its scheduling, queue, gang and placement. */
    static String view(String uid, String rv, String created, String scheduled, String node, String scheduler,
                       String group, String queue, int gpus, String placement) {
        return view(uid, rv, created, scheduled, null, node, scheduler, group, queue, gpus, placement);
    }

    static String view(String uid, String rv, String created, String scheduled, String deleted, String node,
                       String scheduler, String group, String queue, int gpus, String placement) {
        String observed = deleted != null ? deleted : scheduled != null ? scheduled : created;
        return """
                {"uid":"%s","namespace":"%s","name":"%s","resourceVersion":"%s","type":"%s","observedAt":"%s",
                 "createdAt":"%s","scheduledAt":%s,"deletedAt":%s,"nodeName":%s,"schedulerName":"%s","phase":"%s",
                 "groupName":%s,"queueName":%s,"gpuResources":{"nvidia.com/gpu":%d},"placement":%s}""".formatted(uid,
                uid.equals("dmd-etl") ? "batchy" : "research", uid, rv, deleted != null ? "DELETED" : "MODIFIED", observed,
                created, quoted(scheduled), quoted(deleted), quoted(node), scheduler,
                scheduled != null ? "Running" : "Pending", quoted(group), quoted(queue), gpus, placement);
    }

    static String workload(String uid, String rv, String queue, String created, String clusterQueue, String flavor,
                           String conditions) {
        String assignments = flavor == null ? "[]" : """
                [{"name":"main","count":1,"flavors":{"nvidia.com/gpu":"%s"},"resourceUsage":{"nvidia.com/gpu":2}}]"""
                .formatted(flavor);
        return """
                {"uid":"%s","namespace":"research","name":"%s","resourceVersion":"%s","type":"MODIFIED",
                 "observedAt":"2025-06-06T00:00:00Z","apiVersion":"kueue.x-k8s.io/v1beta1","createdAt":"%s",
                 "queueName":"%s","active":true,"podSets":[{"name":"main","count":1,"requests":{"nvidia.com/gpu":2}}],
                 "clusterQueue":%s,"assignments":%s,"conditions":[%s]}""".formatted(uid, uid, rv, created, queue,
                quoted(clusterQueue), assignments, conditions);
    }

    static String refused(String at) {
        return """
                {"type":"QuotaReserved","status":"False","reason":"Pending","message":"couldn't assign flavors to pod set main: insufficient unused quota for nvidia.com/gpu in flavor a100-dmd, 2 more needed","lastTransitionTime":"%s"}"""
                .formatted(at);
    }

    static String admitted(String at) {
        return """
                {"type":"QuotaReserved","status":"True","reason":"QuotaReserved","message":"Quota reserved","lastTransitionTime":"%1$s"},
                {"type":"Admitted","status":"True","reason":"Admitted","message":"The workload is admitted","lastTransitionTime":"%1$s"}"""
                .formatted(at);
    }

    static String queueObject(String kind, String namespace, String name, String more) {
        return """
                {"kind":"%s","namespace":"%s","name":"%s","uid":"q-%s","resourceVersion":"1","type":"ADDED",
                 "observedAt":"2025-06-01T00:00:00Z"%s}""".formatted(kind, namespace, name, name, more);
    }

    static String governance() {
        String h100Only = "{\"nodeSelector\":{\"nvidia.com/gpu.product\":\"" + H100 + "\"}}";
        String either = "{\"nodeAffinity\":[{\"matchExpressions\":[{\"key\":\"nvidia.com/gpu.product\",\"operator\":\"In\","
                + "\"values\":[\"" + A100_GFD + "\",\"" + H100 + "\"]}]}]}";
        String workloads = String.join(",",
                workload("dmd-w1", "31", "training", D + "2T09:00:00Z", null, null, refused(D + "2T09:00:01Z")),
                workload("dmd-w1", "32", "training", D + "2T09:00:00Z", "cq-dmd-a100", "a100-dmd", admitted(D + "2T09:30:00Z")),
                workload("dmd-w2", "33", "training", D + "2T10:00:00Z", "cq-dmd-a100", "a100-dmd", admitted(D + "2T10:05:00Z")),
                workload("dmd-w3", "34", "h100q", D + "5T01:00:00Z", "cq-dmd-h100", "h100-dmd", admitted(D + "5T01:10:00Z")),
                workload("dmd-w4", "35", "training", D + "3T08:00:00Z", null, null, refused(D + "3T08:00:01Z")));
        String queues = String.join(",",
                queueObject("RESOURCE_FLAVOR", "", "a100-dmd", ",\"nodeLabels\":{\"nvidia.com/gpu.product\":\"" + A100_GFD + "\"}"),
                queueObject("RESOURCE_FLAVOR", "", "h100-dmd", ",\"nodeLabels\":{\"nvidia.com/gpu.product\":\"" + H100 + "\"}"),
                queueObject("CLUSTER_QUEUE", "", "cq-dmd-a100",
                        ",\"quotas\":[{\"flavor\":\"a100-dmd\",\"resource\":\"nvidia.com/gpu\",\"nominal\":8}]"),
                queueObject("CLUSTER_QUEUE", "", "cq-dmd-h100",
                        ",\"quotas\":[{\"flavor\":\"h100-dmd\",\"resource\":\"nvidia.com/gpu\",\"nominal\":4}]"),
                queueObject("LOCAL_QUEUE", "research", "training", ",\"clusterQueue\":\"cq-dmd-a100\""),
                queueObject("LOCAL_QUEUE", "research", "h100q", ",\"clusterQueue\":\"cq-dmd-h100\""));
        String podGroup = """
                {"uid":"dmd-pg-mpi","namespace":"research","name":"mpi","resourceVersion":"40","type":"MODIFIED",
                 "observedAt":"2025-06-05T00:00:00Z","createdAt":"2025-06-04T23:00:00Z","queue":"research-q","minMember":1,
                 "phase":"Running","running":1,"conditions":[{"type":"Scheduled","status":"True",
                 "reason":"tasks in gang are ready to be scheduled","lastTransitionTime":"2025-06-05T00:00:00Z"}]}""";
        String views = String.join(",",
                view("dmd-etl", "1", D + "5T04:00:00Z", null, null, "default-scheduler", null, null, 1, "null"),
                view("dmd-etl", "2", D + "5T04:00:00Z", D + "5T06:00:00Z", "dm-a1", "default-scheduler", null, null, 1, "null"),
                view("dmd-mpi", "1", D + "4T23:30:00Z", null, null, "volcano", "mpi", null, 2, "null"),
                view("dmd-mpi", "2", D + "4T23:30:00Z", D + "5T00:00:00Z", "dm-a1", "volcano", "mpi", null, 2, "null"),
                view("dmd-wait-h", "1", D + "3T10:00:00Z", null, null, "default-scheduler", null, null, 4, h100Only),
                view("dmd-wait-h", "2", D + "3T10:00:00Z", null, D + "3T13:00:00Z", null, "default-scheduler", null, null, 4,
                        h100Only),
                view("dmd-wait-k", "1", D + "3T11:00:00Z", null, null, "default-scheduler", null, "training", 2, "null"),
                view("dmd-wait-k", "2", D + "3T11:00:00Z", null, D + "3T12:30:00Z", null, "default-scheduler", null,
                        "training", 2, "null"),
                view("dmd-wait-x", "1", D + "3T10:30:00Z", null, null, "default-scheduler", null, null, 1, either),
                view("dmd-wait-x", "2", D + "3T10:30:00Z", null, D + "3T11:30:00Z", null, "default-scheduler", null, null, 1,
                        either));
        return "{\"cluster\":\"" + CLUSTER + "\",\"workloads\":[" + workloads + "],\"queueObjects\":[" + queues
                + "],\"podGroups\":[" + podGroup + "],\"podStatuses\":[" + views + "]}";
    }

    private static String quoted(String s) {
        return s == null ? "null" : "\"" + s + "\"";
    }
}
