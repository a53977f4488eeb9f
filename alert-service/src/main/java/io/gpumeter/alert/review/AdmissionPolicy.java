package io.gpumeter.alert.review;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpumeter.common.problem.InvalidInput;

import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Refuse the request that caused it at admission next time, as an object a cluster admin applies: a namespace's
 * ResourceQuota, or a ValidatingAdmissionPolicy (with its binding) on pods that request a resource.
 *
 * @param namespace     the namespace the quota is for, or the one the policy is bound to (null: every namespace)
 * @param resource      the resource a pod's containers request, e.g. {@code nvidia.com/gpu}
 * @param limit         a quantity: the quota's hard limit, or the most one container may request
 * @param otherResource the resource that may not be requested beside {@code resource}
 */
public record AdmissionPolicy(Policy policy, String namespace, String resource, String limit, String otherResource,
                              String schedulerName, Action action) implements Prevention {

    /** What is refused. */
    public enum Policy {
        /** The namespace may hold at most {@code limit} of {@code resource} in requests. */
        RESOURCE_QUOTA,
        /** No container may request (or be limited to) more than {@code limit} of {@code resource}. */
        MAX_REQUEST,
        /** A pod requesting {@code resource} must name {@code schedulerName} (HAMi's resources need HAMi's scheduler). */
        REQUIRE_SCHEDULER,
        /** No container may request both {@code resource} and {@code otherResource} (gpumem with gpumem-percentage). */
        EXCLUSIVE_RESOURCES
    }

    /** What the API server does with a pod the policy refuses: the binding's validationActions. */
    public enum Action {
        DENY, WARN, AUDIT
    }

    static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
    static final Pattern DNS_SUBDOMAIN = Pattern.compile("(?=.{1,253}$)[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    /** A resource name: an optional DNS-subdomain prefix and a name of up to 63 characters (nvidia.com/mig-1g.5gb). */
    static final Pattern RESOURCE = Pattern.compile(
            "([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?");
    /** A Kubernetes quantity without exponent: digits, an optional fraction, an optional suffix. */
    static final Pattern QUANTITY = Pattern.compile("[0-9]{1,18}(\\.[0-9]{1,9})?(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?");

    /** The fields each policy takes besides kind and policy; the first ones listed as required are required. */
    private static final Map<Policy, Set<String>> REQUIRED = new EnumMap<>(Map.of(
            Policy.RESOURCE_QUOTA, Set.of("namespace", "resource", "limit"),
            Policy.MAX_REQUEST, Set.of("resource", "limit"),
            Policy.REQUIRE_SCHEDULER, Set.of("resource", "schedulerName"),
            Policy.EXCLUSIVE_RESOURCES, Set.of("resource", "otherResource")));

    static AdmissionPolicy read(JsonNode item, String at) {
        Fields.object(item, at, Set.of("kind", "policy", "namespace", "resource", "limit", "otherResource",
                "schedulerName", "action"), "policy and the fields it needs");
        Policy policy = Fields.member(item, "policy", at, Policy.values(), null);
        Set<String> required = REQUIRED.get(policy);
        Set<String> allowed = new LinkedHashSet<>(Set.of("kind", "policy", "namespace"));
        allowed.addAll(required);
        if (policy != Policy.RESOURCE_QUOTA) {
            allowed.add("action");
        }
        Fields.object(item, at, allowed, policy + " takes " + String.join(", ", required)
                + (policy == Policy.RESOURCE_QUOTA ? "" : ", and optionally namespace and action (DENY, WARN or AUDIT)"));
        String namespace = Fields.matching(item, "namespace", at, required.contains("namespace"), DNS_LABEL,
                "a namespace name (a DNS label)");
        String resource = Fields.matching(item, "resource", at, true, RESOURCE, "a resource name such as nvidia.com/gpu");
        String limit = required.contains("limit") ? quantity(item.get("limit"), Fields.at(at, "limit")) : null;
        String other = Fields.matching(item, "otherResource", at, required.contains("otherResource"), RESOURCE,
                "a resource name such as nvidia.com/gpumem-percentage");
        if (other != null && other.equals(resource)) {
            throw new InvalidInput(Fields.at(at, "otherResource"), Fields.at(at, "otherResource") + " must differ from resource");
        }
        String scheduler = Fields.matching(item, "schedulerName", at, required.contains("schedulerName"), DNS_SUBDOMAIN,
                "a scheduler's name (a DNS subdomain)");
        Action action = policy == Policy.RESOURCE_QUOTA ? null : Fields.member(item, "action", at, Action.values(), Action.DENY);
        return new AdmissionPolicy(policy, namespace, resource, limit, other, scheduler, action);
    }

    private static String quantity(JsonNode v, String field) {
        String text = v == null || v.isNull() ? null : v.isIntegralNumber() && v.asLong() >= 0 ? v.asText()
                : v.isTextual() ? v.asText().strip() : "";
        if (text == null) {
            throw new InvalidInput(field, field + " is required (a quantity such as 4 or 40Gi)");
        }
        if (!QUANTITY.matcher(text).matches()) {
            throw new InvalidInput(field, field + " must be a quantity such as 4, 500m or 40Gi, got " + v);
        }
        return text;
    }

    @Override
    public Kind kind() {
        return Kind.ADMISSION_POLICY;
    }

    @Override
    public ObjectNode json() {
        ObjectNode o = JsonNodeFactory.instance.objectNode().put("kind", kind().name()).put("policy", policy.name());
        if (namespace != null) {
            o.put("namespace", namespace);
        }
        o.put("resource", resource);
        if (limit != null) {
            o.put("limit", limit);
        }
        if (otherResource != null) {
            o.put("otherResource", otherResource);
        }
        if (schedulerName != null) {
            o.put("schedulerName", schedulerName);
        }
        if (action != null) {
            o.put("action", action.name());
        }
        return o;
    }

    @Override
    public String describe() {
        String where = namespace == null ? "in every namespace" : "in namespace " + namespace;
        return switch (policy) {
            case RESOURCE_QUOTA -> "a ResourceQuota: at most " + limit + " " + resource + " requested " + where;
            case MAX_REQUEST -> "refuse (" + action + ") a container requesting more than " + limit + " " + resource + " " + where;
            case REQUIRE_SCHEDULER -> "refuse (" + action + ") a pod requesting " + resource + " without schedulerName "
                    + schedulerName + " " + where;
            case EXCLUSIVE_RESOURCES -> "refuse (" + action + ") a container requesting both " + resource + " and "
                    + otherResource + " " + where;
        };
    }
}
