package io.gpumeter.alert.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.gpumeter.alert.config.ActionsConfig;
import io.gpumeter.alert.domain.ReceivedAlert;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Builds the trace-snapshot Job for one alert. The manifest is parsed first (the operator's template, or the built-in
 * one) and the alert's values are then set into string fields of the parsed object, so that no label value, however
 * hostile, can add a field; values used as a Kubernetes name or label value are checked before anything is built.
 */
final class TraceJob {

    /** RFC 1123 subdomain: what node names are. */
    private static final Pattern DNS_SUBDOMAIN =
            Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    /** A Kubernetes label value (at most 63 characters). */
    private static final Pattern LABEL_VALUE = Pattern.compile("(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{(node|gpu_uuid|alertname|seconds|samples)}");
    private static final ObjectMapper JSON = new ObjectMapper();

    private TraceJob() {
    }

    /** Why the alert's values cannot name a Job's node and labels; empty when they can. */
    static Optional<String> invalid(ReceivedAlert alert, String node) {
        if (node == null || node.length() > 253 || !DNS_SUBDOMAIN.matcher(node).matches()) {
            return Optional.of("refused: the node label '" + shown(node) + "' is not a valid node name (RFC 1123 subdomain)");
        }
        String alertname = alert.alertname();
        if (alertname == null || alertname.length() > 63 || !LABEL_VALUE.matcher(alertname).matches()) {
            return Optional.of("refused: the alertname '" + shown(alertname) + "' is not a valid Kubernetes label value");
        }
        return Optional.empty();
    }

    /**
     * @param template the parsed template, or null for the built-in Job
     * @throws IllegalArgumentException when {@link #invalid} has a reason
     */
    static Job build(ActionsConfig.TraceSnapshot config, Job template, ReceivedAlert alert, String node, String namespace,
                     String name) {
        invalid(alert, node).ifPresent(reason -> {
            throw new IllegalArgumentException(reason);
        });
        Map<String, String> values = Map.of("{node}", node, "{gpu_uuid}", nz(alert.label("gpu_uuid")),
                "{alertname}", alert.alertname(), "{seconds}", String.valueOf(config.seconds()),
                "{samples}", String.valueOf(config.seconds() * 10));
        Map<String, String> labels = Map.of("app.kubernetes.io/name", "gpumeter-trace-snapshot",
                "app.kubernetes.io/managed-by", "alert-service", "gpumeter.io/alertname", alert.alertname());
        Job base = template == null ? builtIn(config, values) : filled(template, values);
        return new JobBuilder(base)
                .editOrNewMetadata().withName(name).withNamespace(namespace).addToLabels(labels)
                .addToAnnotations("gpumeter.io/alert-fingerprint", alert.fingerprint())
                .addToAnnotations("gpumeter.io/alert-starts-at", alert.startsAt().toString()).endMetadata()
                .editOrNewSpec().editOrNewTemplate().editOrNewMetadata().addToLabels(labels).endMetadata()
                .editOrNewSpec().withNodeName(node).endSpec().endTemplate().endSpec()
                .build();
    }

    /** Reads a template manifest (YAML or JSON) as it is, placeholders and all. */
    static Job parse(String manifest) {
        return Serialization.unmarshal(manifest, Job.class);
    }

    private static Job builtIn(ActionsConfig.TraceSnapshot config, Map<String, String> values) {
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

    /** The template with placeholders replaced inside string values only; keys and structure stay as parsed. */
    private static Job filled(Job template, Map<String, String> values) {
        try {
            JsonNode tree = JSON.readTree(Serialization.asJson(template));
            return Serialization.unmarshal(JSON.writeValueAsString(fill(tree, values)), Job.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonNode fill(JsonNode node, Map<String, String> values) {
        if (node.isTextual()) {
            return TextNode.valueOf(replace(node.asText(), values));
        }
        if (node instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                array.set(i, fill(array.get(i), values));
            }
        } else if (node instanceof ObjectNode object) {
            for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                field.setValue(fill(field.getValue(), values));
            }
        }
        return node;
    }

    /** One pass over the text, so that a value holding a placeholder is never expanded in turn. */
    private static String replace(String text, Map<String, String> values) {
        return PLACEHOLDER.matcher(text).replaceAll(m -> Matcher.quoteReplacement(values.getOrDefault(m.group(), m.group())));
    }

    /** A caller's value as the audit shows it: control characters visible, cut short. */
    private static String shown(String value) {
        if (value == null) {
            return "";
        }
        String visible = value.replace("\n", "\\n").replace("\r", "\\r").replaceAll("\\p{Cntrl}", "?");
        return visible.length() > 80 ? visible.substring(0, 80) + "…" : visible;
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
