package io.gpumeter.alert.service;

import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.gpumeter.alert.config.ActionsConfig;
import io.gpumeter.alert.config.AlertConfig;
import io.gpumeter.alert.domain.ReceivedAlert;
import jakarta.enterprise.context.ApplicationScoped;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The "capture evidence on the spot" tier: a Job pinned to the alert's node that records a short trace. Created
 * with nothing but CREATE on jobs, under a name derived from the alert episode, so a repeat creates nothing.
 */
@ApplicationScoped
public class TraceSnapshots {

    private final KubernetesClient kubernetes;
    private final ActionsConfig.TraceSnapshot config;

    public TraceSnapshots(KubernetesClient kubernetes, AlertConfig config) {
        this.kubernetes = kubernetes;
        this.config = config.actions().traceSnapshot();
    }

    public String namespace() {
        return config.namespace().filter(n -> !n.isBlank()).orElseGet(kubernetes::getNamespace);
    }

    /** Job names are DNS labels: a fixed prefix and a digest of the episode. */
    public static String jobName(ReceivedAlert alert) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest((alert.fingerprint() + "@" + alert.startsAt()).getBytes(StandardCharsets.UTF_8));
            return "gpumeter-trace-" + HexFormat.of().formatHex(digest, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    public Outcome capture(ReceivedAlert alert, String node) {
        String namespace = namespace();
        Job job = job(alert, node, namespace);
        try {
            kubernetes.batch().v1().jobs().inNamespace(namespace).resource(job).create();
            return Outcome.applied("created Job " + namespace + "/" + job.getMetadata().getName() + " on node " + node);
        } catch (KubernetesClientException e) {
            if (e.getCode() == 409) {
                return Outcome.inPlace("Job " + namespace + "/" + job.getMetadata().getName() + " already exists");
            }
            return Outcome.failed(e.getCode() == 403 ? "the service account may not create Jobs in " + namespace
                    : "Kubernetes API: HTTP " + e.getCode() + " " + e.getMessage());
        }
    }

    Job job(ReceivedAlert alert, String node, String namespace) {
        Map<String, String> values = Map.of("{node}", node, "{gpu_uuid}", nz(alert.label("gpu_uuid")),
                "{alertname}", alert.alertname(), "{seconds}", String.valueOf(config.seconds()),
                "{samples}", String.valueOf(config.seconds() * 10));
        Map<String, String> labels = Map.of("app.kubernetes.io/name", "gpumeter-trace-snapshot",
                "app.kubernetes.io/managed-by", "alert-service", "gpumeter.io/alertname", labelValue(alert.alertname()));
        Job base = config.templateFile().map(file -> template(file, values)).orElseGet(() -> builtIn(values));
        return new JobBuilder(base)
                .editOrNewMetadata().withName(jobName(alert)).withNamespace(namespace).addToLabels(labels)
                .addToAnnotations("gpumeter.io/alert-fingerprint", alert.fingerprint())
                .addToAnnotations("gpumeter.io/alert-starts-at", alert.startsAt().toString()).endMetadata()
                .editOrNewSpec().editOrNewTemplate().editOrNewMetadata().addToLabels(labels).endMetadata()
                .editOrNewSpec().withNodeName(node).endSpec().endTemplate().endSpec()
                .build();
    }

    private Job builtIn(Map<String, String> values) {
        List<String> command = Arrays.stream(config.command().trim().split("\\s+")).map(a -> replace(a, values)).toList();
        return new JobBuilder()
                .withNewSpec().withBackoffLimit(0).withTtlSecondsAfterFinished(config.ttlSecondsAfterFinished())
                .withActiveDeadlineSeconds((long) config.seconds() + 120)
                .withNewTemplate().withNewSpec().withRestartPolicy("Never")
                .withServiceAccountName(config.serviceAccount().orElse(null))
                .withAutomountServiceAccountToken(false)
                .withNewSecurityContext().withRunAsNonRoot(true).withRunAsUser(65534L)
                .withNewSeccompProfile().withType("RuntimeDefault").endSeccompProfile().endSecurityContext()
                .addNewContainer().withName("capture").withImage(config.image()).withCommand(command)
                .withEnv(new EnvVarBuilder().withName("NODE_IP").withNewValueFrom().withNewFieldRef()
                        .withFieldPath("status.hostIP").endFieldRef().endValueFrom().build())
                .withNewSecurityContext().withAllowPrivilegeEscalation(false).withReadOnlyRootFilesystem(true)
                .withNewCapabilities().withDrop("ALL").endCapabilities().endSecurityContext()
                .endContainer().endSpec().endTemplate().endSpec()
                .build();
    }

    private static Job template(String file, Map<String, String> values) {
        try {
            return Serialization.unmarshal(replace(Files.readString(Path.of(file)), values), Job.class);
        } catch (IOException e) {
            throw new UncheckedIOException("trace-snapshot template " + file + " cannot be read", e);
        }
    }

    private static String replace(String text, Map<String, String> values) {
        String out = text;
        for (Map.Entry<String, String> v : values.entrySet()) {
            out = out.replace(v.getKey(), v.getValue());
        }
        return out;
    }

    private static String labelValue(String s) {
        String v = s.replaceAll("[^A-Za-z0-9._-]", "-");
        return v.length() > 63 ? v.substring(0, 63) : v;
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
