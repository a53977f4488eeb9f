package io.gpumeter.collector.kubernetes;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Reading gpumeter.collector.stack.components: which workloads are which component, and what is refused at start. */
class StackComponentsTest {

    @Test
    void aComponentIsItsWorkloadInItsNamespaceOnly() {
        StackComponents components = StackComponents.parse(Map.of(
                "device-plugin", "gpu-operator/DaemonSet/nvidia-device-plugin-daemonset, nvidia-device-plugin/DaemonSet/nvidia-device-plugin",
                "kueue-controller", "kueue-system/Deployment/kueue-controller-manager",
                "volcano-scheduler", "off"));
        assertEquals("device-plugin", components.component("gpu-operator", "DaemonSet", "nvidia-device-plugin-daemonset"));
        assertEquals("device-plugin", components.component("nvidia-device-plugin", "DaemonSet", "nvidia-device-plugin"));
        assertEquals("kueue-controller", components.component("kueue-system", "Deployment", "kueue-controller-manager"));
        assertNull(components.component("team-a", "DaemonSet", "nvidia-device-plugin-daemonset"), "a tenant's namesake");
        assertNull(components.component("gpu-operator", "Deployment", "nvidia-device-plugin-daemonset"), "another kind");
        assertEquals(Set.of("gpu-operator", "kueue-system", "nvidia-device-plugin"), components.namespaces());
        assertEquals(Set.of("DaemonSet"), components.kinds("gpu-operator"));
        assertTrue(!components.inNamespace("volcano-system"), "a component turned off watches nothing");
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', textBlock = """
            driver          | gpu-operator/nvidia-driver-daemonset                | is not <namespace>/<DaemonSet|Deployment>/<name>
            driver          | gpu-operator/StatefulSet/nvidia-driver               | is not <namespace>/<DaemonSet|Deployment>/<name>
            driver          | GPU-Operator/DaemonSet/nvidia-driver-daemonset       | is not <namespace>/<DaemonSet|Deployment>/<name>
            driver          | gpu-operator/DaemonSet/                              | is not <namespace>/<DaemonSet|Deployment>/<name>
            driver          | gpu-operator/DaemonSet/a/b                           | is not <namespace>/<DaemonSet|Deployment>/<name>
            driver          | ''                                                   | is not <namespace>/<DaemonSet|Deployment>/<name>
            Driver_Daemon   | gpu-operator/DaemonSet/nvidia-driver-daemonset       | a component's name is lower-case letters
            """)
    void aValueThatIsNoWorkloadFailsTheStartNamingItsSetting(String component, String value, String expected) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> StackComponents.parse(Map.of(component, value)));
        assertTrue(e.getMessage().startsWith("gpumeter.collector.stack.components." + component), e.getMessage());
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }

    @Test
    void oneWorkloadCannotBeTwoComponents() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> StackComponents.parse(Map.of(
                "a-plugin", "kube-system/DaemonSet/hami-device-plugin", "b-plugin", "kube-system/DaemonSet/hami-device-plugin")));
        assertTrue(e.getMessage().contains("is already the component a-plugin"), e.getMessage());
    }
}
