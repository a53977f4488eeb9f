package io.gpumeter.ledger.inventory.domain;

import java.util.HashSet;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A MIG profile such as {@code 1g.10gb} or {@code 1c.3g.20gb+me}, read with the grammar of NVIDIA's go-nvlib.
 *
 * @param computeSlices     compute slices of the compute instance; equals gpuInstanceSlices unless the name has a
 *                          {@code Nc.} part
 * @param gpuInstanceSlices slices of the GPU instance it lives in
 * @param memoryGb          the memory figure of the name, which NVIDIA rounds (a 1g.10gb instance holds 9.75 GiB)
 * @param raw               the profile as nvidia-smi spells it, so the resource {@code mig-1g.10gb.me} and the
 *                          profile {@code 1g.10gb+me} give equal records
 */
public record MigProfile(int computeSlices, int gpuInstanceSlices, int memoryGb, String raw) {

    /** Eight is the largest GPU instance NVML defines (GPU_INSTANCE_PROFILE_8_SLICE). */
    public static final int MAX_SLICES = 8;

    private static final Pattern SIZE = Pattern.compile("(?:(\\d{1,2})c\\.)?(\\d{1,2})g\\.(\\d{1,4})gb");
    private static final Pattern ATTRIBUTE = Pattern.compile("[a-z][a-z0-9]*(?:\\.[a-z0-9]+)*");
    private static final String RESOURCE_PREFIX = "nvidia.com/mig-";
    private static final String PRODUCT_MARKER = "-MIG-";
    private static final String SHARED_SUFFIX = "-SHARED";

    public MigProfile {
        requireSane(computeSlices, gpuInstanceSlices, memoryGb, raw);
    }

    /** Parses a profile name such as {@code 2g.20gb}, {@code 1c.3g.20gb}, {@code 1g.10gb+me} or {@code 1g.10gb-me}. */
    public static MigProfile parse(String profile) {
        if (profile == null || profile.isBlank()) {
            throw new IllegalArgumentException("MIG profile is empty");
        }
        return parse(profile.strip(), profile);
    }

    /**
     * Reads a mixed-strategy resource such as {@code nvidia.com/mig-1g.10gb.me}; empty when it is not a MIG resource.
     */
    public static Optional<MigProfile> fromResourceName(String resource) {
        if (resource == null || !resource.strip().startsWith(RESOURCE_PREFIX)) {
            return Optional.empty();
        }
        return Optional.of(fromDeviceName(resource.strip().substring(RESOURCE_PREFIX.length()), resource));
    }

    /**
     * Reads the profile off a GPU feature discovery product label such as {@code NVIDIA-A100-SXM4-40GB-MIG-1g.5gb};
     * empty for a card that is not split, and for the {@code -MIG-INVALID} label of a node that breaks the single
     * strategy.
     */
    public static Optional<MigProfile> fromProductLabel(String product) {
        if (product == null) {
            return Optional.empty();
        }
        String text = product.strip();
        // a time-sliced MIG resource that is not renamed gets -SHARED appended to its product label
        if (text.endsWith(SHARED_SUFFIX)) {
            text = text.substring(0, text.length() - SHARED_SUFFIX.length());
        }
        int marker = text.lastIndexOf(PRODUCT_MARKER);
        if (marker < 0 || text.endsWith(PRODUCT_MARKER + "INVALID")) {
            return Optional.empty();
        }
        return Optional.of(fromDeviceName(text.substring(marker + PRODUCT_MARKER.length()), product));
    }

    /** The device plugin turns the {@code +} of a profile into {@code .} for resource names and labels. */
    private static MigProfile fromDeviceName(String name, String source) {
        Matcher size = SIZE.matcher(name);
        String suffix = size.lookingAt() ? name.substring(size.end()) : "";
        return parse(suffix.startsWith(".") ? name.substring(0, size.end()) + "+" + suffix.substring(1) : name, source);
    }

    private static MigProfile parse(String text, String source) {
        Matcher size = SIZE.matcher(text);
        if (!size.lookingAt()) {
            throw bad(source, "expected [<c>c.]<g>g.<mem>gb, e.g. 1g.10gb or 1c.3g.20gb");
        }
        int g = Integer.parseInt(size.group(2));
        int c = size.group(1) == null ? g : Integer.parseInt(size.group(1));
        int gb = Integer.parseInt(size.group(3));
        requireSane(c, g, gb, source);
        String attributes = attributes(text.substring(size.end()), source);
        return new MigProfile(c, g, gb, (c == g ? "" : c + "c.") + g + "g." + gb + "gb" + attributes);
    }

    /** Attributes follow one {@code +} (extra engines: me, me.all, gfx) or one {@code -} (engines withheld: -me). */
    private static String attributes(String suffix, String profile) {
        if (suffix.isEmpty()) {
            return "";
        }
        char sign = suffix.charAt(0);
        if (sign != '+' && sign != '-') {
            throw bad(profile, "unexpected '" + suffix + "' after the memory size");
        }
        HashSet<String> seen = new HashSet<>();
        for (String attribute : suffix.substring(1).split(",", -1)) {
            if (!ATTRIBUTE.matcher(attribute).matches()) {
                throw bad(profile, "attribute '" + attribute + "' is not a lowercase word such as me, me.all or gfx");
            }
            if (!seen.add(attribute)) {
                throw bad(profile, "attribute '" + attribute + "' appears twice");
            }
        }
        return suffix;
    }

    private static void requireSane(int computeSlices, int gpuInstanceSlices, int memoryGb, String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("MIG profile needs its name");
        }
        if (gpuInstanceSlices < 1 || gpuInstanceSlices > MAX_SLICES) {
            throw bad(text, "GPU instance slices must be 1 to " + MAX_SLICES + ", got " + gpuInstanceSlices);
        }
        if (computeSlices < 1 || computeSlices > gpuInstanceSlices) {
            throw bad(text, "compute slices must be 1 to the " + gpuInstanceSlices + " of its GPU instance, got " + computeSlices);
        }
        if (memoryGb < 1) {
            throw bad(text, "memory must be at least 1gb, got " + memoryGb);
        }
    }

    private static IllegalArgumentException bad(String text, String reason) {
        return new IllegalArgumentException("invalid MIG profile '" + text + "': " + reason);
    }
}
