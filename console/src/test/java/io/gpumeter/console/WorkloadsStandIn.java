package io.gpumeter.console;

/**
 * The ledger's {@code GET /api/v1/tenants/{tenant}/workloads} as the stand-in answers it, shaped as its
 * TenantWorkloads.Workload serialises: acme's and globex's pods, Kueue workloads and pod groups now — what each holds
 * (node and units) or why it waits (state, wait class, place in its queue) — each with the query that triages it. A
 * tenant token reads its own tenant's only (the access table's {@code {3}}): acme's token asking globex's is refused.
 */
final class WorkloadsStandIn {

    private static final String HOLDING = """
            {"kind":"POD","cluster":"lab","namespace":"%s","name":"%s","uid":"%s","state":"HOLDING","node":"gpu-a",
             "units":[{"gpuUuid":"%s","kind":"%s","migProfile":null,"fraction":%s,"cores":%s,"memoryMib":%s,"since":"%s"}],
             "since":"%s","reasonClass":null,"rootCauseClass":null,"reason":null,"message":null,"clusterQueue":null,
             "localQueue":null,"volcanoQueue":null,"positionInClusterQueue":null,"positionInLocalQueue":null,
             "triage":"namespace=%s&pod=%s&cluster=lab"}""";

    static final String ACME = "[" + """
            {"kind":"POD","cluster":"lab","namespace":"acme-ml","name":"<img src=x onerror=alert(1)>","uid":"u9","state":"PENDING",
             "node":null,"units":[],"since":"2026-11-30T11:30:00Z","reasonClass":"no-device","rootCauseClass":"data-plane",
             "reason":"FailedScheduling","message":"0/2 nodes are available","clusterQueue":null,"localQueue":null,"volcanoQueue":null,
             "positionInClusterQueue":null,"positionInLocalQueue":null,
             "triage":"namespace=acme-ml&pod=%3Cimg+src%3Dx+onerror%3Dalert%281%29%3E&cluster=lab"},
            {"kind":"WORKLOAD","cluster":"lab","namespace":"acme-ml","name":"job-train-9-3f2a1","uid":"w9","state":"PENDING",
             "node":null,"units":[],"since":"2026-11-30T11:00:00Z","reasonClass":"quota","rootCauseClass":"control-plane",
             "reason":"Pending","message":"insufficient unused quota","clusterQueue":"team-a-cq","localQueue":"acme-lq",
             "volcanoQueue":null,"positionInClusterQueue":1,"positionInLocalQueue":1,
             "triage":"namespace=acme-ml&workload=job-train-9-3f2a1&cluster=lab"},""" + "\n"
            + HOLDING.formatted("acme-ml", "train-7", "u1", "GPU-aaaa-0001", "VGPU", "0.5", "50", "40960", "2026-11-30T09:00:00Z",
                    "2026-11-30T09:00:00Z", "acme-ml", "train-7") + ",\n"
            + HOLDING.formatted("acme-serve", "llm-0", "u3", "GPU-aaaa-0002", "WHOLE", "1", "null", "null", "2026-11-29T00:00:00Z",
                    "2026-11-29T00:00:00Z", "acme-serve", "llm-0") + "]";
    static final String GLOBEX = "[" + """
            {"kind":"POD","cluster":"lab","namespace":"globex-lab","name":"notebook-3","uid":"u6","state":"PENDING","node":null,
             "units":[],"since":"2026-11-30T11:50:00Z","reasonClass":"no-device","rootCauseClass":"data-plane",
             "reason":"FailedScheduling","message":"0/2 nodes are available: 2 Insufficient nvidia.com/gpu.","clusterQueue":null,
             "localQueue":null,"volcanoQueue":null,"positionInClusterQueue":null,"positionInLocalQueue":null,
             "triage":"namespace=globex-lab&pod=notebook-3&cluster=lab"},""" + "\n"
            + HOLDING.formatted("globex-lab", "notebook-2", "u2", "GPU-aaaa-0001", "VGPU", "0.25", "25", "20480",
                    "2026-11-30T10:30:00Z", "2026-11-30T10:30:00Z", "globex-lab", "notebook-2") + "]";

    private WorkloadsStandIn() {
    }

    static void install() {
        StandIn.reply(Backend.LEDGER, "/api/v1/tenants/acme/workloads", false, StandIn.Reply.json(ACME));
        StandIn.reply(Backend.LEDGER, "/api/v1/tenants/acme/workloads", true, StandIn.Reply.json(ACME));
        StandIn.reply(Backend.LEDGER, "/api/v1/tenants/globex/workloads", false, StandIn.Reply.json(GLOBEX));
        StandIn.reply(Backend.LEDGER, "/api/v1/tenants/globex/workloads", true, StandIn.Reply.problem(403, "Forbidden",
                "a tenant token reads its own tenant's workloads only"));
    }
}
