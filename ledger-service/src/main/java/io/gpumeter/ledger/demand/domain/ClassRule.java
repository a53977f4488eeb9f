package io.gpumeter.ledger.demand.domain;

import java.util.Map;

/**
 * One rule of the workload classes: an owner ({@code group/Kind}), a label ({@code key} or {@code key=value}) or
 * both, and the class a pod matching it has.
 */
public record ClassRule(String ownerGroup, String ownerKind, String labelKey, String labelValue,
                        WorkloadClass workloadClass) {

    /**
     * Reads a rule as configured; a part that is not well formed is an {@link IllegalArgumentException} naming it
     * ({@code owner}, {@code label} or {@code class}) first.
     */
    public static ClassRule parse(String owner, String label, String workloadClass) {
        String o = blankToNull(owner);
        String l = blankToNull(label);
        if (o == null && l == null) {
            throw new IllegalArgumentException("owner: a rule names an owner (group/Kind), a label (key or key=value) or both");
        }
        String group = null;
        String kind = null;
        if (o != null) {
            int slash = o.indexOf('/');
            if (slash <= 0 || slash == o.length() - 1 || o.indexOf('/', slash + 1) >= 0 || o.chars().anyMatch(Character::isWhitespace)) {
                throw new IllegalArgumentException("owner: must be group/Kind such as apps/Deployment or "
                        + "batch.volcano.sh/Job (core/Kind for the core group), got '" + owner + "'");
            }
            group = o.substring(0, slash);
            kind = o.substring(slash + 1);
        }
        String key = null;
        String value = null;
        if (l != null) {
            int eq = l.indexOf('=');
            key = (eq < 0 ? l : l.substring(0, eq)).strip();
            value = eq < 0 ? null : l.substring(eq + 1).strip();
            if (key.isEmpty()) {
                throw new IllegalArgumentException("label: must be key or key=value, got '" + label + "'");
            }
        }
        WorkloadClass c;
        try {
            c = WorkloadClass.parse(workloadClass);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("class: " + e.getMessage());
        }
        return new ClassRule(group, kind, key, value, c);
    }

    public boolean namesOwner() {
        return ownerKind != null;
    }

    /** Whether the owner is the rule's; one stored without its group matches by kind when {@code byKindAlone}. */
    boolean matchesOwner(OwnerChain.Link link, boolean byKindAlone) {
        if (!namesOwner() || !ownerKind.equals(link.kind())) {
            return false;
        }
        return link.group() == null ? byKindAlone : ownerGroup.equals(link.group());
    }

    /** True for a rule naming no label; else the pod carries the key (with the value, when the rule names one). */
    boolean matchesLabels(Map<String, String> labels) {
        if (labelKey == null) {
            return true;
        }
        String v = labels.get(labelKey);
        return v != null && (labelValue == null || labelValue.equals(v));
    }

    /** The label part as configured: {@code key} or {@code key=value}. */
    String labelText() {
        return labelValue == null ? labelKey : labelKey + "=" + labelValue;
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }
}
