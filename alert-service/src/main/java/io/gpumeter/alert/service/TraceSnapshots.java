package io.gpumeter.alert.service;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
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
import java.util.HexFormat;
import java.util.Optional;

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
        Optional<String> invalid = TraceJob.invalid(alert, node);
        if (invalid.isPresent()) {
            return Outcome.skipped(invalid.get());
        }
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

    /** The Job for the alert: the template (or the built-in Job) parsed first, then the alert's values set into it. */
    Job job(ReceivedAlert alert, String node, String namespace) {
        Job template = config.templateFile().map(TraceSnapshots::template).orElse(null);
        return TraceJob.build(config, template, alert, node, namespace, jobName(alert));
    }

    private static Job template(String file) {
        try {
            return TraceJob.parse(Files.readString(Path.of(file)));
        } catch (IOException e) {
            throw new UncheckedIOException("trace-snapshot template " + file + " cannot be read", e);
        }
    }
}
