package io.gpumeter.launcher.cli;

import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.gpumeter.common.testing.StandIn;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Map;

import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** ./gpumeter triage against a stand-in alert-service: the question it sends, and the answer as a terminal shows it. */
class TriageCommandTest {

    /** A tenant wrote the pod's name and its container's message; both carry terminal controls. */
    static final String ANSWER = """
            {"subject":{"kind":"POD","cluster":"east","namespace":"acme-ml","name":"train-0\\u001b[2J","tenant":"acme"},
             "at":"2026-11-02T12:00:00Z","symptom":"PENDING","layer":"control-plane","cause":"cluster-full",
             "confidence":"HIGH",
             "scope":{"level":"CLUSTER","alike":["acme-ml/train-1"],"othersAlike":2},
             "changes":[{"id":"c-1","at":"2026-11-02T10:00:00Z","kind":"driver","node":"gpu-a100-01",
                         "component":"driver","from":"550.54.15","to":"560.35.03"}],
             "recurrence":{"last7d":3,"firstSeen":"2026-10-30T08:00:00Z"},
             "evidence":[{"at":"2026-11-02T11:58:00Z","source":"event",
                          "fact":"0/4 nodes are available: 4 Insufficient nvidia.com/gpu\\nFix: run this \\u001b]0;pwned\\u0007",
                          "command":"kubectl describe pod -n acme-ml train-0"},
                         {"at":"2026-11-02T11:59:00Z","source":"node","fact":"every fitting node: all 8 held","command":null}],
             "alternatives":[{"cause":"no-device","ruledOutBy":"allocatable nvidia.com/gpu 8 on every fitting node"}],
             "checked":["the scheduler's last message"],
             "fix":{"action":"1. Wait, or shrink the request\\n2. Find idle holders","verify":"the pod is scheduled"},
             "named":null}""";

    /** alert-service: its triage read answers {@link #ANSWER} unless a test says otherwise. */
    StandIn alert;

    @BeforeEach
    void start() {
        alert = StandIn.start();
        alert.answer(get(urlPathEqualTo("/api/v1/triage")), ANSWER);
    }

    @AfterEach
    void stop() {
        alert.close();
    }

    String url() {
        return alert.url() + "/";
    }

    /** The query of each triage read, as it was sent. */
    List<String> queries() {
        return asked().stream().map(r -> r.getUrl().contains("?") ? r.getUrl().substring(r.getUrl().indexOf('?') + 1)
                : null).toList();
    }

    List<String> authorizations() {
        return asked().stream().map(r -> String.valueOf(r.getHeader("Authorization"))).toList();
    }

    private List<LoggedRequest> asked() {
        return alert.calls(getRequestedFor(urlPathEqualTo("/api/v1/triage")));
    }

    @Test
    void aPodsTriagePrintsThePathTheEvidenceWithItsCommandsAndTheFixWithNoTerminalControlPassedOn() {
        Run run = Run.of(Map.of("GPUMETER_TOKEN", "tok"), "triage", "acme-ml/train-0", "--cluster", "east",
                "--at", "2026-11-02T12:00:00Z", "--alert", url());
        assertEquals(0, run.exitCode(), run.toString());
        assertEquals(List.of("namespace=acme-ml&pod=train-0&cluster=east&at=2026-11-02T12%3A00%3A00Z"), queries());
        assertEquals(List.of("Bearer tok"), authorizations());
        String out = run.out();
        List<String> lines = out.lines().toList();
        assertEquals("pod acme-ml/train-0\\x1b[2J · cluster east · at 2026-11-02T12:00:00Z", lines.get(0));
        assertEquals("PENDING → control-plane → cluster-full (HIGH confidence)", lines.get(1));
        assertEquals("Scope: CLUSTER; alike: acme-ml/train-1, and 2 of other tenants", lines.get(2));
        assertEquals("Recurrence: 3 times in 7 days, first 2026-10-30T08:00:00Z", lines.get(3));
        assertTrue(out.contains("\nEvidence\n  2026-11-02T11:58:00Z  event  0/4 nodes are available: 4 Insufficient "
                + "nvidia.com/gpu\\x0aFix: run this \\x1b]0;pwned\\x07\n"
                + " ".repeat(2 + 20 + 2 + 5 + 2) + "$ kubectl describe pod -n acme-ml train-0\n"
                + "  2026-11-02T11:59:00Z  node   every fitting node: all 8 held\n"), out);
        assertTrue(out.contains("\nRuled out\n  no-device  allocatable nvidia.com/gpu 8 on every fitting node\n"), out);
        assertTrue(out.contains("\nChanges before\n  2026-11-02T10:00:00Z  driver  gpu-a100-01  driver  550.54.15 → 560.35.03\n"), out);
        assertTrue(out.contains("\nChecked\n  - the scheduler's last message\n"), out);
        assertTrue(out.endsWith("\nFix\n  1. Wait, or shrink the request\n  2. Find idle holders\n  Verify: the pod is scheduled\n"), out);
        assertFalse(out.chars().anyMatch(c -> c == 0x1b || c == 0x07), "no control character reaches the terminal");
        assertEquals("", run.err());
    }

    @Test
    void jsonIsTheAnswerWithEveryControlEscaped() {
        Run run = Run.of(Map.of("GPUMETER_TOKEN", "tok"), "triage", "--node", "gpu-a100-01", "--json", "--alert", url());
        assertEquals(0, run.exitCode(), run.toString());
        assertEquals(List.of("node=gpu-a100-01"), queries());
        assertTrue(run.out().contains("\"cause\" : \"cluster-full\""), run.out());
        assertTrue(run.out().contains("train-0\\u001B[2J"), run.out());
        assertTrue(run.out().contains("\\u2192") || !ANSWER.contains("→"), "non-ASCII escaped");
        assertFalse(run.out().chars().anyMatch(c -> c < 0x20 && c != '\n'), run.out());
    }

    @Test
    void aRefusalIsPrintedInAlertServicesWordsMadeSafe() {
        alert.answer(get(urlPathEqualTo("/api/v1/triage")), StandIn.json(404, "{\"status\":404,\"title\":\"Not Found\","
                + "\"field\":\"pod\",\"detail\":\"no pod acme-ml/x\\u001b[31m is known\"}"));
        Run run = Run.of(Map.of("GPUMETER_TOKEN", "tok"), "triage", "--workload", "acme-ml/job-1", "--alert", url());
        assertEquals(1, run.exitCode(), run.toString());
        assertEquals(List.of("namespace=acme-ml&workload=job-1"), queries());
        assertEquals("gpumeter triage: no pod acme-ml/x\\x1b[31m is known (pod) [HTTP 404]", run.err().strip());
        assertEquals("", run.out());
    }

    @Test
    void aServiceAndAPodGroupAreAskedByTheirOwnParameters() {
        Run.of(Map.of("GPUMETER_TOKEN", "tok"), "triage", "--service", "acme-ml/chat", "--alert", url());
        Run.of(Map.of("GPUMETER_TOKEN", "tok"), "triage", "--pod-group", "acme ml/pg 1", "--alert", url());
        assertEquals(List.of("namespace=acme-ml&service=chat", "namespace=acme%20ml&podGroup=pg%201"), queries());
    }

    @Test
    void anAlertServiceThatIsNotThereIsSaidSo() {
        String gone = url();
        alert.close();
        Run run = Run.of(Map.of("GPUMETER_TOKEN", "tok"), "triage", "acme-ml/train-0", "--alert", gone);
        assertEquals(1, run.exitCode(), run.toString());
        assertTrue(run.err().startsWith("gpumeter triage: alert-service does not answer at http://127.0.0.1:"), run.err());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "no subject         | --cluster east                     | name a subject: NAMESPACE/POD, --workload",
            "two subjects       | acme-ml/train-0 --node gpu-1       | name one subject only",
            "a pod without ns   | train-0                            | NAMESPACE/POD must be NAMESPACE/NAME, got 'train-0'",
            "a node with ns     | --node acme/gpu-1                  | --node is a node's name, which has no namespace",
            "a bad cluster      | acme-ml/train-0 --cluster East     | --cluster must be a DNS label",
            "a bad instant      | acme-ml/train-0 --at yesterday     | Invalid value for option '--at': must be an RFC 3339 instant",
    })
    void refuses(String name, String line, String message) {
        Run run = Run.of(Run.concat(new String[] {"triage", "--alert", url()}, Run.words(line)));
        assertEquals(2, run.exitCode(), run.toString());
        assertTrue(run.err().startsWith("gpumeter triage: " + message), run.toString());
        assertEquals(List.of(), queries());
    }
}
