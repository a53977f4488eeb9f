package io.gpumeter.alert.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.gpumeter.alert.config.ActionsConfig;
import io.gpumeter.alert.domain.ReceivedAlert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The trace-snapshot Job is parsed before the alert's values go in, so hostile label values add no field. */
class TraceJobTest {

    private static final String TEMPLATE = """
            apiVersion: batch/v1
            kind: Job
            spec:
              backoffLimit: 0
              template:
                metadata:
                  annotations:
                    example.com/gpu: "{gpu_uuid}"
                spec:
                  restartPolicy: Never
                  containers:
                    - name: capture
                      image: example.com/capture:1
                      args: ["--gpu", "{gpu_uuid}", "--alert", "{alertname}", "--node", "{node}", "--for", "{seconds}s"]
                      env:
                        - name: GPU
                          value: "{gpu_uuid}"
            """;

    private static final List<String> HOSTILE = List.of(
            "GPU-1\"\n      securityContext:\n        privileged: true",
            "x\n  hostPID: true\n  hostNetwork: true",
            "a: b",
            "{}",
            "[x, y]",
            "'single' \"double\" `back`",
            "- item\n- other",
            "&anchor *alias !!binary",
            "{gpu_uuid}{node}");

    @Test
    void hostileGpuLabelsFillTheirFieldsAndAddNone() {
        Job benign = TraceJob.build(config("unused"), TraceJob.parse(TEMPLATE), alert("GPU-aaaa"), "gpu-1", "gpumeter", "job-1");
        for (String hostile : HOSTILE) {
            Job job = TraceJob.build(config("unused"), TraceJob.parse(TEMPLATE), alert(hostile), "gpu-1", "gpumeter", "job-1");
            assertEquals(paths(benign), paths(job), "the same fields, whatever the label: " + hostile);
            Container capture = job.getSpec().getTemplate().getSpec().getContainers().get(0);
            assertEquals(List.of("--gpu", hostile, "--alert", "InferenceLatencyP99High", "--node", "gpu-1", "--for", "10s"),
                    capture.getArgs());
            assertEquals(hostile, capture.getEnv().get(0).getValue());
            assertEquals(hostile, job.getSpec().getTemplate().getMetadata().getAnnotations().get("example.com/gpu"));
            assertEquals("gpu-1", job.getSpec().getTemplate().getSpec().getNodeName());
            assertEquals(null, job.getSpec().getTemplate().getSpec().getHostPID());
            assertEquals(null, capture.getSecurityContext());
        }
    }

    @Test
    void theBuiltInJobTakesAHostileLabelAsOneArgument() {
        for (String hostile : HOSTILE) {
            Job job = TraceJob.build(config("dcgmi dmon -i {gpu_uuid} -c {samples}"), null, alert(hostile), "gpu-1",
                    "gpumeter", "job-1");
            assertEquals(List.of("dcgmi", "dmon", "-i", hostile, "-c", "100"),
                    job.getSpec().getTemplate().getSpec().getContainers().get(0).getCommand());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"gpu-1\nhostPID: true", "gpu-1: x", "GPU_1", "", "-gpu", "gpu-1 ", "{}", "a/b"})
    void aNodeThatIsNoNodeNameIsRefusedWithAReason(String node) {
        Optional<String> reason = TraceJob.invalid(alert("GPU-1"), node);
        assertTrue(reason.isPresent(), node);
        assertTrue(reason.get().startsWith("refused: the node label '"), reason.get());
        assertTrue(!reason.get().contains("\n"), "the audit shows control characters escaped");
        assertThrows(IllegalArgumentException.class,
                () -> TraceJob.build(config("x"), null, alert("GPU-1"), node, "gpumeter", "job-1"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"Gpu\nMissing", "Gpu: Missing", "job:latency:p99", "{}", "a123456789b123456789c123456789d123456789e123456789f123456789g1234"})
    void anAlertnameThatIsNoLabelValueIsRefused(String alertname) {
        ReceivedAlert alert = new ReceivedAlert("fp", alertname, true, Map.of(), Map.of(), Instant.EPOCH, null, null);
        assertTrue(TraceJob.invalid(alert, "gpu-1").orElseThrow().contains("not a valid Kubernetes label value"));
    }

    @Test
    void ordinaryValuesPass() {
        assertEquals(Optional.empty(), TraceJob.invalid(alert("GPU-1"), "ip-10-0-0-1.ec2.internal"));
    }

    private static ReceivedAlert alert(String gpu) {
        return new ReceivedAlert("fp-1", "InferenceLatencyP99High", true, Map.of("gpu_uuid", gpu, "node", "gpu-1"),
                Map.of(), Instant.parse("2026-05-01T00:00:00Z"), null, null);
    }

    /** Every field path of the Job, with array positions. */
    private static TreeSet<String> paths(Job job) {
        TreeSet<String> out = new TreeSet<>();
        try {
            collect("", new ObjectMapper().readTree(Serialization.asJson(job)), out);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return out;
    }

    private static void collect(String at, JsonNode node, TreeSet<String> out) {
        out.add(at);
        if (node.isObject()) {
            for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
                String name = it.next();
                collect(at + "." + name, node.get(name), out);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                collect(at + "[" + i + "]", node.get(i), out);
            }
        }
    }

    private static ActionsConfig.TraceSnapshot config(String command) {
        return new ActionsConfig.TraceSnapshot() {
            public Optional<String> namespace() {
                return Optional.empty();
            }

            public Optional<String> templateFile() {
                return Optional.empty();
            }

            public String image() {
                return "example.com/capture:1";
            }

            public String command() {
                return command;
            }

            public int seconds() {
                return 10;
            }

            public Optional<String> serviceAccount() {
                return Optional.empty();
            }

            public int ttlSecondsAfterFinished() {
                return 3600;
            }

            public String mode() {
                return "enforce";
            }

            public int maxPerHour() {
                return 10;
            }
        };
    }
}
