package io.gpumeter.ledger.inventory.domain;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Optional;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class MigProfileTest {

    static Stream<Arguments> profiles() {
        return Stream.of(
                arguments("smallest A100 40GB slice", "1g.5gb", new MigProfile(1, 1, 5, "1g.5gb")),
                arguments("A100 80GB / H100 slice", "1g.10gb", new MigProfile(1, 1, 10, "1g.10gb")),
                arguments("slice with media extensions", "1g.10gb+me", new MigProfile(1, 1, 10, "1g.10gb+me")),
                arguments("slice with all media extensions", "1g.10gb+me.all", new MigProfile(1, 1, 10, "1g.10gb+me.all")),
                arguments("slice without media extensions", "1g.10gb-me", new MigProfile(1, 1, 10, "1g.10gb-me")),
                arguments("graphics slice", "1g.24gb+gfx", new MigProfile(1, 1, 24, "1g.24gb+gfx")),
                arguments("H100 94GB slice", "1g.12gb", new MigProfile(1, 1, 12, "1g.12gb")),
                arguments("double-memory single slice", "1g.20gb", new MigProfile(1, 1, 20, "1g.20gb")),
                arguments("two slices", "2g.20gb", new MigProfile(2, 2, 20, "2g.20gb")),
                arguments("three slices", "3g.40gb", new MigProfile(3, 3, 40, "3g.40gb")),
                arguments("four slices", "4g.40gb", new MigProfile(4, 4, 40, "4g.40gb")),
                arguments("whole A100 80GB", "7g.80gb", new MigProfile(7, 7, 80, "7g.80gb")),
                arguments("whole H200", "7g.141gb", new MigProfile(7, 7, 141, "7g.141gb")),
                arguments("compute instance of a 3-slice instance", "1c.3g.20gb", new MigProfile(1, 3, 20, "1c.3g.20gb")),
                arguments("compute instance of a 4-slice instance", "2c.4g.40gb", new MigProfile(2, 4, 40, "2c.4g.40gb")),
                arguments("compute instance with media extensions", "1c.1g.5gb+me", new MigProfile(1, 1, 5, "1g.5gb+me")),
                arguments("full compute instance written out", "3c.3g.20gb", new MigProfile(3, 3, 20, "3g.20gb")),
                arguments("several attributes", "1g.10gb+me,gfx", new MigProfile(1, 1, 10, "1g.10gb+me,gfx")),
                arguments("surrounding whitespace", "  2g.20gb\n", new MigProfile(2, 2, 20, "2g.20gb")));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("profiles")
    void parsesProfiles(String name, String text, MigProfile expected) {
        assertEquals(expected, MigProfile.parse(text));
    }

    static Stream<Arguments> badProfiles() {
        return Stream.of(
                arguments("missing memory", "1g"),
                arguments("memory without unit", "1g.10"),
                arguments("memory unit g instead of gb", "1g.10g"),
                arguments("memory only", "10gb"),
                arguments("slices without number", "g.10gb"),
                arguments("zero slices", "0g.5gb"),
                arguments("zero memory", "1g.0gb"),
                arguments("more compute than instance slices", "2c.1g.10gb"),
                arguments("zero compute slices", "0c.1g.10gb"),
                arguments("more slices than any GPU", "9g.80gb"),
                arguments("negative slices", "-1g.10gb"),
                arguments("negative memory", "1g.-10gb"),
                arguments("five-digit memory", "1g.99999gb"),
                arguments("uppercase", "1G.10GB"),
                arguments("uppercase attribute", "1g.10gb+ME"),
                arguments("nvidia-smi MIG prefix kept", "MIG 1g.10gb"),
                arguments("resource spelling passed as a profile", "1g.10gb.me"),
                arguments("empty attribute", "1g.10gb+"),
                arguments("empty negative attribute", "1g.10gb-"),
                arguments("two plus signs", "1g.10gb+me+gfx"),
                arguments("plus and minus", "1g.10gb+me-gfx"),
                arguments("attribute starting with a digit", "1g.10gb+1me"),
                arguments("attribute starting with a dot", "1g.10gb+.me"),
                arguments("attribute ending with a dot", "1g.10gb+me."),
                arguments("repeated attribute", "1g.10gb+me,me"),
                arguments("empty attribute between commas", "1g.10gb+me,,gfx"),
                arguments("trailing text", "1c.1g.5gb.extra"),
                arguments("space inside", "1g. 10gb"),
                arguments("word", "mig"));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("badProfiles")
    void refusesMalformedProfiles(String name, String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> MigProfile.parse(text));
        assertTrue(e.getMessage().contains("'" + text + "'"), e::getMessage);
    }

    @Test
    void refusesEmptyProfiles() {
        assertThrows(IllegalArgumentException.class, () -> MigProfile.parse(null));
        assertThrows(IllegalArgumentException.class, () -> MigProfile.parse(""));
        assertThrows(IllegalArgumentException.class, () -> MigProfile.parse("  "));
    }

    @Test
    void refusesImpossibleRecords() {
        assertThrows(IllegalArgumentException.class, () -> new MigProfile(4, 3, 20, "4c.3g.20gb"));
        assertThrows(IllegalArgumentException.class, () -> new MigProfile(1, 1, 5, " "));
    }

    static Stream<Arguments> resources() {
        return Stream.of(
                arguments("plain profile", "nvidia.com/mig-1g.10gb", Optional.of(MigProfile.parse("1g.10gb"))),
                arguments("media extensions, + spelled as .", "nvidia.com/mig-1g.10gb.me", Optional.of(MigProfile.parse("1g.10gb+me"))),
                arguments("all media extensions", "nvidia.com/mig-1g.10gb.me.all", Optional.of(MigProfile.parse("1g.10gb+me.all"))),
                arguments("graphics", "nvidia.com/mig-1g.24gb.gfx", Optional.of(MigProfile.parse("1g.24gb+gfx"))),
                arguments("without media extensions", "nvidia.com/mig-1g.10gb-me", Optional.of(MigProfile.parse("1g.10gb-me"))),
                arguments("three slices", "nvidia.com/mig-3g.40gb", Optional.of(new MigProfile(3, 3, 40, "3g.40gb"))),
                arguments("smallest A100 40GB slice", "nvidia.com/mig-1g.5gb", Optional.of(new MigProfile(1, 1, 5, "1g.5gb"))),
                arguments("plus spelling tolerated", "nvidia.com/mig-1g.10gb+me", Optional.of(MigProfile.parse("1g.10gb+me"))),
                arguments("whole GPU", "nvidia.com/gpu", Optional.empty()),
                arguments("renamed shared GPU", "nvidia.com/gpu.shared", Optional.empty()),
                arguments("HAMi memory", "nvidia.com/gpumem", Optional.empty()),
                arguments("HAMi vGPU", "hami.io/vgpu", Optional.empty()),
                arguments("other vendor", "amd.com/gpu", Optional.empty()),
                arguments("cpu", "cpu", Optional.empty()),
                arguments("empty", "", Optional.empty()),
                arguments("absent", null, Optional.empty()));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("resources")
    void readsResourceNames(String name, String resource, Optional<MigProfile> expected) {
        assertEquals(expected, MigProfile.fromResourceName(resource));
    }

    static Stream<Arguments> badResources() {
        return Stream.of(
                arguments("no profile", "nvidia.com/mig-"),
                arguments("word", "nvidia.com/mig-foo"),
                arguments("zero slices", "nvidia.com/mig-0g.5gb"),
                arguments("trailing dot", "nvidia.com/mig-1g.10gb."),
                arguments("double dot", "nvidia.com/mig-1g.10gb..me"),
                arguments("unknown tail", "nvidia.com/mig-1g.10gb_me"));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("badResources")
    void refusesMalformedResourceNames(String name, String resource) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> MigProfile.fromResourceName(resource));
        assertTrue(e.getMessage().contains("'" + resource + "'"), e::getMessage);
    }

    static Stream<Arguments> products() {
        return Stream.of(
                arguments("A100 40GB, single strategy", "NVIDIA-A100-SXM4-40GB-MIG-1g.5gb", Optional.of(new MigProfile(1, 1, 5, "1g.5gb"))),
                arguments("media extensions, + spelled as .", "NVIDIA-A100-SXM4-80GB-MIG-1g.10gb.me", Optional.of(MigProfile.parse("1g.10gb+me"))),
                arguments("H100 three slices", "NVIDIA-H100-80GB-HBM3-MIG-3g.40gb", Optional.of(new MigProfile(3, 3, 40, "3g.40gb"))),
                arguments("A30 two slices", "NVIDIA-A30-MIG-2g.12gb", Optional.of(new MigProfile(2, 2, 12, "2g.12gb"))),
                arguments("time-sliced MIG keeps -SHARED", "NVIDIA-A100-SXM4-40GB-MIG-1g.5gb-SHARED", Optional.of(new MigProfile(1, 1, 5, "1g.5gb"))),
                arguments("without media extensions, shared", "NVIDIA-A100-SXM4-80GB-MIG-1g.10gb-me-SHARED", Optional.of(MigProfile.parse("1g.10gb-me"))),
                arguments("whole card", "NVIDIA-A100-SXM4-40GB", Optional.empty()),
                arguments("old Tesla name", "Tesla-T4", Optional.empty()),
                arguments("time-sliced whole card", "NVIDIA-A100-SXM4-40GB-SHARED", Optional.empty()),
                arguments("invalid single-strategy node", "NVIDIA-A100-SXM4-40GB-MIG-INVALID", Optional.empty()),
                arguments("empty", "", Optional.empty()),
                arguments("absent", null, Optional.empty()));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("products")
    void readsProductLabels(String name, String product, Optional<MigProfile> expected) {
        assertEquals(expected, MigProfile.fromProductLabel(product));
    }

    static Stream<Arguments> badProducts() {
        return Stream.of(
                arguments("nothing after -MIG-", "NVIDIA-A100-SXM4-40GB-MIG-"),
                arguments("word after -MIG-", "NVIDIA-A100-SXM4-40GB-MIG-foo"),
                arguments("unknown uppercase suffix", "NVIDIA-A100-SXM4-40GB-MIG-1g.5gb-EXTRA"),
                arguments("too many slices", "NVIDIA-A100-SXM4-40GB-MIG-9g.40gb"));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("badProducts")
    void refusesMalformedProductLabels(String name, String product) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> MigProfile.fromProductLabel(product));
        assertTrue(e.getMessage().contains("'" + product + "'"), e::getMessage);
    }
}
