package io.gpumeter.ledger.fragmentation.domain;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Typical vGPU request shapes (memory in GiB) and how often each is asked for; the weights make the overall
 * fragmentation figure.
 */
public record ShapeMix(List<Shape> shapes) {

    /** Above this a shape is not a vGPU request on any card sold today. */
    public static final int MAX_GIB = 1024;
    public static final int MAX_SHAPES = 16;

    /** One shape and its weight in the mix. */
    public record Shape(int sizeGiB, BigDecimal weight) {

        public long sizeMib() {
            return sizeGiB * 1024L;
        }
    }

    public ShapeMix {
        shapes = List.copyOf(shapes);
        if (shapes.isEmpty() || shapes.size() > MAX_SHAPES) {
            throw new IllegalArgumentException("a shape mix needs 1 to " + MAX_SHAPES + " shapes, got " + shapes.size());
        }
        Set<Integer> seen = new HashSet<>();
        for (Shape s : shapes) {
            if (s.sizeGiB() < 1 || s.sizeGiB() > MAX_GIB) {
                throw new IllegalArgumentException("a shape must be 1 to " + MAX_GIB + " GiB, got " + s.sizeGiB());
            }
            if (s.weight().signum() < 0) {
                throw new IllegalArgumentException("the weight of " + s.sizeGiB() + " GiB must not be negative");
            }
            if (!seen.add(s.sizeGiB())) {
                throw new IllegalArgumentException("shape " + s.sizeGiB() + " GiB appears twice");
            }
        }
    }

    /** Reads entries such as {@code 10:0.5} (GiB:weight); a bare {@code 10} weighs 1. */
    public static ShapeMix parse(List<String> entries) {
        List<Shape> shapes = new ArrayList<>();
        for (String entry : entries) {
            String[] parts = entry.trim().split(":", -1);
            if (parts.length > 2) {
                throw new IllegalArgumentException("expected GiB:weight such as 10:0.5, got '" + entry + "'");
            }
            try {
                shapes.add(new Shape(Integer.parseInt(parts[0].trim()),
                        parts.length == 2 ? new BigDecimal(parts[1].trim()) : BigDecimal.ONE));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("expected GiB:weight such as 10:0.5, got '" + entry + "'");
            }
        }
        return new ShapeMix(shapes);
    }

    /**
     * The mix restricted to the shapes asked for, in their order, each with its configured weight (0 when the
     * mix does not name it); equal weights when the mix names none of them.
     */
    public ShapeMix select(List<Integer> sizesGiB) {
        Map<Integer, BigDecimal> weights = shapes.stream().collect(Collectors.toMap(Shape::sizeGiB, Shape::weight));
        boolean anyWeighted = sizesGiB.stream().anyMatch(s -> weights.getOrDefault(s, BigDecimal.ZERO).signum() > 0);
        Function<Integer, BigDecimal> weight = s -> anyWeighted ? weights.getOrDefault(s, BigDecimal.ZERO) : BigDecimal.ONE;
        return new ShapeMix(sizesGiB.stream().map(s -> new Shape(s, weight.apply(s))).toList());
    }

    public BigDecimal totalWeight() {
        return shapes.stream().map(Shape::weight).reduce(BigDecimal.ZERO, BigDecimal::add);
    }

    /** A shape's weight as a part of the whole mix. */
    public BigDecimal share(Shape shape) {
        BigDecimal total = totalWeight();
        return total.signum() == 0 ? BigDecimal.ZERO
                : shape.weight().divide(total, 6, RoundingMode.HALF_EVEN).stripTrailingZeros();
    }

    public List<Integer> sizes() {
        return shapes.stream().map(Shape::sizeGiB).toList();
    }
}
