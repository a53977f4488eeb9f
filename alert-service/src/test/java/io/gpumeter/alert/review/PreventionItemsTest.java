package io.gpumeter.alert.review;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicy;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicyBinding;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PreventionItemsTest {

    @Test
    void anAlertThresholdLeftToItsDefaultsFiresAboveTheLineAfterFiveMinutesAsAWarning() {
        Review r = Reviews.of("{\"kind\":\"ALERT_THRESHOLD\",\"alert\":\"X\",\"metric\":\"up\",\"threshold\":0.5,"
                + "\"comparison\":null,\"severity\":null}");
        AlertThreshold a = (AlertThreshold) Reviews.items(r).get(0);
        assertEquals("up > 0.5", a.expr());
        assertEquals("5m", a.forDuration());
        assertEquals("warning", a.severity());
        assertEquals(a.json(), AlertThreshold.read(a.json(), "p").json(), "the stored form reads back as itself");
    }

    @Test
    void textForPrometheusPrintsItsTemplateDelimitersInsteadOfRunningThem() {
        assertEquals("a {{\"{{\"}} .Labels {{\"}}\"}} b", PrometheusRuleExport.literal("a {{ .Labels }} b"));
        assertEquals("plain", PrometheusRuleExport.literal("plain"));
    }

    @Test
    void exportNamesAreDnsLabelsUniquePerIncidentAndItem() {
        String longId = "Incident_" + "x".repeat(120);
        String name = ExportNames.object(longId, 12);
        assertTrue(name.matches("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?"), name);
        assertTrue(name.endsWith("-12"), name);
        assertTrue(!ExportNames.object("a-b", 1).equals(ExportNames.object("a_b", 1)), "ids that slug alike stay apart");
    }

    @Test
    void eachPolicyIsAValidatingAdmissionPolicyOnPodsWithItsBinding() {
        Review r = Reviews.of(
                "{\"kind\":\"ADMISSION_POLICY\",\"policy\":\"REQUIRE_SCHEDULER\",\"resource\":\"nvidia.com/gpumem\","
                        + "\"schedulerName\":\"hami-scheduler\",\"action\":\"warn\"}",
                "{\"kind\":\"ADMISSION_POLICY\",\"policy\":\"EXCLUSIVE_RESOURCES\",\"resource\":\"nvidia.com/gpumem\","
                        + "\"otherResource\":\"nvidia.com/gpumem-percentage\",\"namespace\":\"ml-team\"}");
        List<HasMetadata> scheduler = AdmissionPolicyExport.objects(r, 1, (AdmissionPolicy) Reviews.items(r).get(0));
        String cel = ((ValidatingAdmissionPolicy) scheduler.get(0)).getSpec().getValidations().get(0).getExpression();
        assertTrue(cel.contains("object.spec.schedulerName == 'hami-scheduler'"), cel);
        assertTrue(cel.contains("'nvidia.com/gpumem' in c.resources.limits"), cel);
        ValidatingAdmissionPolicyBinding everywhere = (ValidatingAdmissionPolicyBinding) scheduler.get(1);
        assertEquals(List.of("Warn"), everywhere.getSpec().getValidationActions());
        assertNull(everywhere.getSpec().getMatchResources(), "no namespace named: bound to every namespace");

        List<HasMetadata> exclusive = AdmissionPolicyExport.objects(r, 2, (AdmissionPolicy) Reviews.items(r).get(1));
        String both = ((ValidatingAdmissionPolicy) exclusive.get(0)).getSpec().getValidations().get(0).getExpression();
        assertTrue(both.contains("!('nvidia.com/gpumem' in c.resources.limits && 'nvidia.com/gpumem-percentage' in c.resources.limits)"), both);
        assertEquals(List.of("Deny"), ((ValidatingAdmissionPolicyBinding) exclusive.get(1)).getSpec().getValidationActions());
        assertTrue(((ValidatingAdmissionPolicy) exclusive.get(0)).getSpec().getValidations().get(0).getMessage()
                .contains("may not request both nvidia.com/gpumem and nvidia.com/gpumem-percentage"));
    }
}
