package io.gpumeter.collector.kubernetes;

import io.fabric8.kubernetes.api.model.Container;

import java.util.ArrayList;
import java.util.List;

/**
 * The images of a GPU-stack workload's or pod's containers, in order, as written. A component's version is read off
 * them later, so each is kept whole: a tag that is no version ({@code latest}, {@code main-latest}), an image named by
 * its digest alone ({@code nvcr.io/nvidia/k8s/dcgm-exporter@sha256:…}), a tag and a digest both. Only what is no
 * image reference at all — a container without one, blanks or control characters inside, a name longer than any
 * registry takes — makes the object skipped, with that reason.
 */
final class StackImages {

    /** A registry takes a repository name of 255 characters, a tag of 128 and a digest of some 100. */
    static final int MAX_LENGTH = 512;
    static final int MAX_CONTAINERS = 100;

    private StackImages() {
    }

    static List<String> of(List<Container> containers, String field) {
        List<String> images = new ArrayList<>();
        if (containers == null) {
            return images;
        }
        if (containers.size() > MAX_CONTAINERS) {
            throw new Skip("GPU stack: more than " + MAX_CONTAINERS + " containers in " + field);
        }
        for (Container c : containers) {
            images.add(require(c == null ? null : c.getImage(), field));
        }
        return images;
    }

    static String require(String image, String field) {
        if (image == null || image.isEmpty()) {
            throw new Skip("GPU stack: a container without image in " + field);
        }
        if (image.length() > MAX_LENGTH) {
            throw new Skip("GPU stack: an image in " + field + " longer than " + MAX_LENGTH + " characters");
        }
        for (int i = 0; i < image.length(); i++) {
            char ch = image.charAt(i);
            if (ch <= ' ' || ch == 0x7f || Character.isWhitespace(ch) || Character.isISOControl(ch)) {
                throw new Skip("GPU stack: an image in " + field + " holds blanks or control characters");
            }
        }
        return image;
    }
}
