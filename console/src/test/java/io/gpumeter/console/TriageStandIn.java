package io.gpumeter.console;

import com.github.tomakehurst.wiremock.client.MappingBuilder;

import java.util.List;

import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.matching;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;

/**
 * alert-service's triage as the stand-in answers it: {@code GET /api/v1/triage} routed by the query that names a
 * subject (a namespace with all but a node), each answer shaped as the common
 * {@code Triage} record serialises (Jackson: record components in order, ISO instants, enum names; {@code layer} and
 * {@code cause} the labels the other reads serve). A tenant token gets its own subjects only, another tenant's being
 * a 404 as an unknown one is, and its answers name no other tenant's pods. The subjects are the console's other
 * fixtures': the pod and the workload waiting on Queues, the node of the open Xid 79 on Failures, the service of
 * jitter event 42, a healthy pod, and a pod whose name is markup.
 */
final class TriageStandIn {

    static final String HOSTILE_POD = "<img src=x onerror=alert(1)>";
    private static final String PATH = "/api/v1/triage";

    private TriageStandIn() {
    }

    /**
     * Each subject's answer by the query that names it (namespace and name, or a node), the fleet's for fleet tokens
     * and acme's own for acme's token; a subject named without its namespace is a 400, any other a 404 — as
     * alert-service answers them.
     */
    static void install() {
        subject("pod", "globex-lab", "notebook-3", NO_DEVICE, null);
        subject("workload", "acme-ml", "job-train-9-3f2a1", QUOTA, QUOTA);
        subject("node", null, "gpu-a", XID, null);
        // the neighbour named to acme as alert-service names another tenant's pod to a tenant
        subject("service", "acme-serve", "llm", INTERFERENCE, INTERFERENCE.replace("globex-lab/notebook-2", "another tenant's pod"));
        subject("pod", "acme-ml", "train-7", HEALTHY, HEALTHY);
        subject("pod", "acme-ml", "train-5", NEIGHBOUR_OOM, null);
        subject("pod", "acme-ml", HOSTILE_POD, HOSTILE, HOSTILE);
        for (String kind : List.of("pod", "workload", "podGroup", "service")) {
            StandIn.stub(Backend.ALERT, "triage without namespace " + kind, get(urlPathEqualTo(PATH)).atPriority(6)
                    .withQueryParam(kind, matching(".+")).withQueryParam("namespace", absent())
                    .willReturn(StandIn.Reply.problem(400, "Bad Request", "namespace is required with " + kind
                            + " (or write " + kind + "=namespace/name)").response()));
        }
        StandIn.stub(Backend.ALERT, "triage of a ghost", get(urlPathEqualTo(PATH)).atPriority(7)
                .withQueryParam("namespace", equalTo("acme-ml")).withQueryParam("pod", equalTo("ghost"))
                .willReturn(StandIn.Reply.problem(404, "Not Found", "no pod named acme-ml/ghost is known").response()));
        StandIn.stub(Backend.ALERT, "triage of anything else", get(urlPathEqualTo(PATH)).atPriority(8)
                .willReturn(StandIn.Reply.problem(404, "Not Found", "no such subject is known").response()));
    }

    /** A subject's answer to fleet tokens, and to acme's token when acme may see it (null: a 404, as an unknown one). */
    private static void subject(String kind, String namespace, String name, String fleet, String acme) {
        for (boolean tenant : List.of(false, true)) {
            MappingBuilder route = get(urlPathEqualTo(PATH)).atPriority(4).withQueryParam(kind, equalTo(name))
                    .andMatching(tenant ? StandIn.TENANT_TOKEN : StandIn.FLEET_TOKEN);
            if (namespace != null) {
                route = route.withQueryParam("namespace", equalTo(namespace));
            }
            String answer = tenant ? acme : fleet;
            StandIn.Reply reply = answer == null ? StandIn.Reply.problem(404, "Not Found", "no " + kind + " named "
                    + (namespace == null ? "" : namespace + "/") + name + " is known") : StandIn.Reply.json(answer);
            if (answer != null) {
                Examples.check(Backend.ALERT, PATH, reply);
            }
            StandIn.stub(Backend.ALERT, "triage " + kind + " " + namespace + "/" + name + (tenant ? " tenant" : ""),
                    route.willReturn(reply.response()));
        }
    }

    /* notebook-3 waits: the scheduler says "Insufficient nvidia.com/gpu", and the node that would fit reports none
     * because its device plugin crash-loops — not a full cluster. */
    static final String NO_DEVICE = """
            {"subject":{"kind":"POD","cluster":"lab","namespace":"globex-lab","name":"notebook-3","uid":"u6","tenant":"globex"},
             "at":"2026-11-30T12:00:00Z","symptom":"PENDING","layer":"data-plane","cause":"no-device","confidence":"HIGH",
             "scope":{"level":"NODE","alike":["gpu-b"],"othersAlike":0},
             "changes":[{"id":"0b1c2d3e4f5a6b7c8d9e0f1a","at":"2026-11-30T11:40:00Z","kind":"GPU_ALLOCATABLE","node":"gpu-b",
                         "component":"nvidia.com/gpu","from":"2","to":"0"},
                        {"id":"1a2b3c4d5e6f7a8b9c0d1e2f","at":"2026-11-30T11:39:00Z","kind":"COMPONENT_HEALTH","node":"gpu-b",
                         "component":"device-plugin","from":"Ready","to":"CrashLoopBackOff"}],
             "recurrence":{"last7d":2,"firstSeen":"2026-11-29T03:10:00Z"},
             "evidence":[{"at":"2026-11-30T11:50:01Z","source":"event","fact":"FailedScheduling: 0/2 nodes are available: 2 Insufficient nvidia.com/gpu.",
                          "command":"kubectl get events -n globex-lab --field-selector involvedObject.name=notebook-3"},
                         {"at":"2026-11-30T11:40:00Z","source":"node","fact":"gpu-b: capacity nvidia.com/gpu 2, allocatable 0",
                          "command":"kubectl get node gpu-b -o jsonpath='{.status.allocatable}'"},
                         {"at":"2026-11-30T11:39:00Z","source":"gpu-stack","fact":"nvidia-device-plugin-daemonset-x7k2p on gpu-b: CrashLoopBackOff, 7 restarts",
                          "command":"kubectl get pods -n gpu-operator -o wide --field-selector spec.nodeName=gpu-b"}],
             "alternatives":[{"cause":"cluster-full","ruledOutBy":"gpu-b offers 0 of its 2 cards and none is held: the cards are not reported, not taken"},
                             {"cause":"wrong-scheduler","ruledOutBy":"the pod asks nvidia.com/gpu of default-scheduler, no HAMi resource"},
                             {"cause":"affinity-or-taint","ruledOutBy":"gpu-b matches the pod's selector and carries no taint it does not tolerate"}],
             "checked":["the pod's events","gpu-a and gpu-b's status","the GPU stack's pods on gpu-b"],
             "fix":{"action":"Restart the device plugin on gpu-b, then read its log for why it crashed.",
                    "verify":"kubectl get node gpu-b -o jsonpath='{.status.allocatable.nvidia\\\\.com/gpu}'"},
             "named":[{"kind":"POD","namespace":"globex-lab","name":"notebook-3","tenant":"globex"}]}""";

    static final String QUOTA = """
            {"subject":{"kind":"WORKLOAD","cluster":"lab","namespace":"acme-ml","name":"job-train-9-3f2a1","uid":"w9","tenant":"acme"},
             "at":"2026-11-30T12:00:00Z","symptom":"PENDING","layer":"control-plane","cause":"quota","confidence":"HIGH",
             "scope":{"level":"QUEUE","alike":["acme-ml/job-train-9-3f2a1"],"othersAlike":0},"changes":[],
             "recurrence":{"last7d":1,"firstSeen":"2026-11-30T11:00:00Z"},
             "evidence":[{"at":"2026-11-30T11:00:00Z","source":"workload","fact":"QuotaReserved False: couldn't assign flavors to pod set main: insufficient unused quota for nvidia.com/gpu in flavor h100, 4 more needed",
                          "command":"kubectl describe workload -n acme-ml job-train-9-3f2a1"}],
             "alternatives":[{"cause":"flavor","ruledOutBy":"flavor h100 matches the pod set"}],
             "checked":["the Workload's conditions","team-a-cq's quota"],
             "fix":{"action":"Wait for quota, or borrow: raise team-a-cq's nominal quota or its cohort's borrowing limit.",
                    "verify":"kubectl get workload -n acme-ml job-train-9-3f2a1 -o jsonpath='{.status.admission}'"},"named":null}""";

    static final String XID = """
            {"subject":{"kind":"NODE","cluster":"lab","namespace":null,"name":"gpu-a","uid":null,"tenant":null},
             "at":"2026-11-30T10:00:00Z","symptom":"FAILED","layer":"data-plane","cause":"xid-79","confidence":"HIGH",
             "scope":{"level":"NODE","alike":["gpu-a"],"othersAlike":0},
             "changes":[{"id":"2b3c4d5e6f7a8b9c0d1e2f3a","at":"2026-11-30T09:40:00Z","kind":"DRIVER_VERSION","node":"gpu-a",
                         "component":null,"from":"550.54.15","to":"560.35.03"}],
             "recurrence":{"last7d":3,"firstSeen":"2026-11-28T02:00:00Z"},
             "evidence":[{"at":"2026-11-30T10:00:00Z","source":"incident","fact":"kmsg: NVRM: Xid (PCI:0000:3b:00): 79, GPU has fallen off the bus",
                          "command":"kubectl debug node/gpu-a -it --image=busybox -- dmesg | grep -i xid"}],
             "alternatives":[],"checked":["gpu-a's incidents","gpu-a's changes"],
             "fix":{"action":"Drain gpu-a and reset or replace the card.","verify":"nvidia-smi -q -d PAGE_RETIREMENT"},"named":null}""";

    static final String INTERFERENCE = """
            {"subject":{"kind":"SERVICE","cluster":"lab","namespace":"acme-serve","name":"llm","uid":null,"tenant":"acme"},
             "at":"2026-11-30T10:20:00Z","symptom":"PERFORMANCE","layer":"data-plane","cause":"neighbour-interference","confidence":"MEDIUM",
             "scope":{"level":"POD","alike":["acme-serve/llm-0"],"othersAlike":0},"changes":[],
             "recurrence":{"last7d":1,"firstSeen":"2026-11-30T10:20:00Z"},
             "evidence":[{"at":"2026-11-30T10:15:00Z","source":"jitter","fact":"globex-lab/notebook-2 arrived on GPU-aaaa-0001 5 min before; SM_ACTIVE rose 0.75",
                          "command":"curl -H \\"Authorization: Bearer $TOKEN\\" 'http://slo-service:8083/api/v1/jitter-events/42'"},
                         {"at":"2026-11-30T10:20:00Z","source":"slo","fact":"TTFT p99 1840.5 ms against a limit of 1000 ms",
                          "command":null}],
             "alternatives":[{"cause":"own-load","ruledOutBy":"its request rate stayed at 300 per minute"}],
             "checked":["jitter event 42","the service's request rate"],
             "fix":{"action":"Move the neighbour off the card, or give the service a card of its own.","verify":null},"named":null}""";

    /* train-5 ran out of card memory while its own stayed under its grant: the time-sliced card's neighbour filled it. */
    static final String NEIGHBOUR_OOM = """
            {"subject":{"kind":"POD","cluster":"lab","namespace":"acme-ml","name":"train-5","uid":"u5b","tenant":"acme"},
             "at":"2026-11-30T09:30:00Z","symptom":"OOM","layer":"data-plane","cause":"neighbour-memory-pressure","confidence":"HIGH",
             "scope":{"level":"POD","alike":[],"othersAlike":0},"changes":[],
             "recurrence":{"last7d":1,"firstSeen":"2026-11-30T09:30:00Z"},
             "evidence":[{"at":"2026-11-30T09:29:00Z","source":"usage","fact":"GPU-aaaa-0001: 81920 of 81920 MiB of framebuffer used",
                          "command":"nvidia-smi --query-gpu=memory.used,memory.total --format=csv -i GPU-aaaa-0001"},
                         {"at":"2026-11-30T09:29:00Z","source":"usage","fact":"train-5's own memory 30720 MiB, under its 40960 MiB grant",
                          "command":null},
                         {"at":"2026-11-30T09:30:00Z","source":"pod-status","fact":"main terminated: OOMKilled (CUDA out of memory)",
                          "command":"kubectl get pod -n acme-ml train-5 -o jsonpath='{.status.containerStatuses[*].lastState}'"}],
             "alternatives":[{"cause":"oom","ruledOutBy":"its memory stayed at 30720 MiB, under its 40960 MiB grant"},
                             {"cause":"isolation-not-enforced","ruledOutBy":"the card is time-sliced: no HAMi grant to enforce"},
                             {"cause":"node-oom","ruledOutBy":"no kernel OOM kill on gpu-a"}],
             "checked":["the card's memory at the minute","the pod's own memory and grant","gpu-a's kernel log"],
             "fix":{"action":"Give train-5 a card of its own, or cap its neighbours' memory with HAMi shares.","verify":null},"named":null}""";

    static final String HEALTHY = """
            {"subject":{"kind":"POD","cluster":"lab","namespace":"acme-ml","name":"train-7","uid":"u1","tenant":"acme"},
             "at":"2026-11-30T12:00:00Z","symptom":"NONE","layer":null,"cause":null,"confidence":null,"scope":null,"changes":[],
             "recurrence":null,"evidence":[],"alternatives":[],
             "checked":["the pod is Running on gpu-a and holds its card","no incident of the pod or its card","no violation"],
             "fix":null,"named":null}""";

    /* A pod whose name, facts and commands are markup: a page that writes them unescaped runs them. */
    static final String HOSTILE = """
            {"subject":{"kind":"POD","cluster":"lab","namespace":"acme-ml","name":"<img src=x onerror=alert(1)>","uid":"u9","tenant":"acme"},
             "at":"2026-11-30T12:00:00Z","symptom":"OOM","layer":"workload","cause":"oom","confidence":"HIGH",
             "scope":{"level":"POD","alike":["acme-ml/<img src=x onerror=alert(1)>"],"othersAlike":1},"changes":[],
             "recurrence":{"last7d":1,"firstSeen":"2026-11-30T11:30:00Z"},
             "evidence":[{"at":"2026-11-30T11:30:00Z","source":"pod-status","fact":"OOMKilled: <script>alert('fact')</script> rose to its limit",
                          "command":"kubectl logs -n acme-ml '<img src=x onerror=alert(1)>' --previous"}],
             "alternatives":[{"cause":"neighbour-memory-pressure","ruledOutBy":"<b>bold</b> its own memory reached its grant"}],
             "checked":["<i>the pod's status</i>"],
             "fix":{"action":"Raise the pod's memory limit.","verify":"kubectl get pod -n acme-ml '<img src=x onerror=alert(1)>'"},"named":null}""";
}
