package io.gpumeter.alert.review;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuotaBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicyBindingBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicyBindingFluent;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicyBuilder;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * An ADMISSION_POLICY as the objects a cluster admin applies ({@code kubectl apply -f}): a ResourceQuota in the
 * namespace, or a ValidatingAdmissionPolicy on the creation of pods with the ValidatingAdmissionPolicyBinding that
 * puts it in force (admissionregistration.k8s.io/v1, Kubernetes 1.30 or newer; the quantity checks use Kubernetes'
 * CEL quantity library). The CEL reads each container's resources.limits and resources.requests; resource names,
 * quantities and scheduler names are validated patterns, so they are written into it as plain string literals.
 */
final class AdmissionPolicyExport {

    private AdmissionPolicyExport() {
    }

    static List<HasMetadata> objects(Review review, int n, AdmissionPolicy p) {
        String name = ExportNames.object(review.incidentId(), n);
        Map<String, String> annotations = Map.of("gpumeter.io/incident", review.incidentId(),
                "gpumeter.io/review-version", String.valueOf(review.version()));
        Map<String, String> labels = Map.of("app.kubernetes.io/managed-by", "gpumeter-review");
        if (p.policy() == AdmissionPolicy.Policy.RESOURCE_QUOTA) {
            return List.of(new ResourceQuotaBuilder().withNewMetadata().withName(name).withNamespace(p.namespace())
                    .withLabels(labels).withAnnotations(annotations).endMetadata()
                    .withNewSpec().addToHard("requests." + p.resource(), new Quantity(p.limit())).endSpec().build());
        }
        String message = switch (p.policy()) {
            case MAX_REQUEST -> "a container may request at most " + p.limit() + " " + p.resource();
            case REQUIRE_SCHEDULER -> "a pod requesting " + p.resource() + " must set schedulerName: " + p.schedulerName();
            case EXCLUSIVE_RESOURCES -> "a container may not request both " + p.resource() + " and " + p.otherResource();
            case RESOURCE_QUOTA -> throw new IllegalStateException("a quota is no policy");
        };
        var policy = new ValidatingAdmissionPolicyBuilder().withNewMetadata().withName(name).withLabels(labels)
                .withAnnotations(annotations).endMetadata()
                .withNewSpec().withFailurePolicy("Fail")
                .withNewMatchConstraints().addNewResourceRule().withApiGroups("").withApiVersions("v1")
                .withOperations("CREATE").withResources("pods").endResourceRule().endMatchConstraints()
                .addNewValidation().withExpression(expression(p))
                .withMessage(message + " (gpumeter review of incident " + review.incidentId() + ")").endValidation()
                .endSpec().build();
        ValidatingAdmissionPolicyBindingFluent<ValidatingAdmissionPolicyBindingBuilder>.SpecNested<ValidatingAdmissionPolicyBindingBuilder> spec =
                new ValidatingAdmissionPolicyBindingBuilder().withNewMetadata().withName(name).withLabels(labels)
                        .withAnnotations(annotations).endMetadata()
                        .withNewSpec().withPolicyName(name)
                        .withValidationActions(action(p.action()));
        if (p.namespace() != null) {
            spec = spec.withNewMatchResources().withNewNamespaceSelector()
                    .addToMatchLabels("kubernetes.io/metadata.name", p.namespace()).endNamespaceSelector().endMatchResources();
        }
        return List.of(policy, spec.endSpec().build());
    }

    /** The condition a pod must meet (true admits it). */
    static String expression(AdmissionPolicy p) {
        String r = "'" + p.resource() + "'";
        return switch (p.policy()) {
            case MAX_REQUEST -> {
                String q = "quantity('" + p.limit() + "')";
                yield "object.spec.containers.all(c, !has(c.resources) || ("
                        + "(!has(c.resources.limits) || !(" + r + " in c.resources.limits) || "
                        + "!quantity(string(c.resources.limits[" + r + "])).isGreaterThan(" + q + ")) && "
                        + "(!has(c.resources.requests) || !(" + r + " in c.resources.requests) || "
                        + "!quantity(string(c.resources.requests[" + r + "])).isGreaterThan(" + q + "))))";
            }
            case REQUIRE_SCHEDULER -> "!object.spec.containers.exists(c, has(c.resources) && ("
                    + "(has(c.resources.limits) && " + r + " in c.resources.limits) || "
                    + "(has(c.resources.requests) && " + r + " in c.resources.requests))) || "
                    + "(has(object.spec.schedulerName) && object.spec.schedulerName == '" + p.schedulerName() + "')";
            case EXCLUSIVE_RESOURCES -> "object.spec.containers.all(c, !has(c.resources) || !has(c.resources.limits) || "
                    + "!(" + r + " in c.resources.limits && '" + p.otherResource() + "' in c.resources.limits))";
            case RESOURCE_QUOTA -> throw new IllegalStateException("a quota has no expression");
        };
    }

    /** Deny, Warn or Audit, as the binding spells them. */
    private static String action(AdmissionPolicy.Action a) {
        String s = a.name().toLowerCase(Locale.ROOT);
        return Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
