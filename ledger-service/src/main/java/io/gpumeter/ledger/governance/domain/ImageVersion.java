package io.gpumeter.ledger.governance.domain;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The version an image reference names: its tag, else its digest (an image named by digest only), else
 * {@code latest} as the runtime reads a bare name. A tag that is not a version (a branch name, {@code latest}) is
 * kept as it is: it is what the cluster runs.
 */
public final class ImageVersion {

    private ImageVersion() {
    }

    public static String of(String image) {
        String ref = image.trim();
        int at = ref.indexOf('@');
        String name = at >= 0 ? ref.substring(0, at) : ref;
        String digest = at >= 0 ? ref.substring(at + 1) : null;
        int slash = name.lastIndexOf('/');
        int colon = name.lastIndexOf(':');
        if (colon > slash && colon < name.length() - 1) {
            return name.substring(colon + 1);
        }
        return digest != null && !digest.isEmpty() ? digest : "latest";
    }

    /**
     * How a change of images reads: the versions of the images in order (distinct), or, where two lists differ
     * though their versions do not (another repository under the same tag), the images themselves.
     */
    public static String[] describe(List<String> before, List<String> after) {
        String v1 = versions(before);
        String v2 = versions(after);
        if (v1 != null && v1.equals(v2)) {
            return new String[]{String.join(", ", before), String.join(", ", after)};
        }
        return new String[]{v1, v2};
    }

    /** The distinct versions of these images in order, comma-separated; null for none. */
    public static String versions(List<String> images) {
        if (images == null || images.isEmpty()) {
            return null;
        }
        Set<String> out = new LinkedHashSet<>();
        images.forEach(i -> out.add(of(i)));
        return String.join(", ", out);
    }
}
