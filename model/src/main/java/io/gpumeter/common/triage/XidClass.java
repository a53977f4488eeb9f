package io.gpumeter.common.triage;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The Xid catalogue's classes: application Xids are the workload's own fault and need no repair of the card; hardware
 * and driver Xids need a reset, a drain or a replacement; the rest are looked up case by case. An Xid's cause is
 * {@code xid-N} (79 is {@link FailureCause#GPU_LOST}); its class decides its root-cause class and its runbook entry
 * ({@code xid-application}, {@code xid-hardware-driver}, {@code xid-unclassified}) where the code has none of its own.
 */
public enum XidClass {
    APPLICATION(RootCauseClass.WORKLOAD, Set.of(13, 31, 43, 45, 68, 69)),
    HARDWARE_DRIVER(RootCauseClass.DATA_PLANE, Set.of(8, 32, 38, 48, 54, 56, 57, 58, 61, 62, 63, 64, 65, 74, 79, 92,
            94, 95, 109, 110, 119, 120, 121, 122, 123, 124, 136, 140, 143, 144, 145, 146, 147, 148, 149, 150, 151, 154,
            155, 156, 157, 158, 159)),
    UNCLASSIFIED(RootCauseClass.DATA_PLANE, Set.of());

    private static final String PREFIX = "xid-";

    private final RootCauseClass rootCause;
    private final Set<Integer> codes;

    XidClass(RootCauseClass rootCause, Set<Integer> codes) {
        this.rootCause = rootCause;
        this.codes = codes;
    }

    public RootCauseClass rootCause() {
        return rootCause;
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The cause that stands for the whole class in the runbook, e.g. {@code xid-hardware-driver}. */
    public String causeLabel() {
        return PREFIX + label();
    }

    public static XidClass of(int code) {
        for (XidClass c : values()) {
            if (c.codes.contains(code)) {
                return c;
            }
        }
        return UNCLASSIFIED;
    }

    /** The Xid code of a cause such as {@code xid-48}; empty for any other cause. */
    public static Optional<Integer> code(String cause) {
        if (cause == null || !cause.startsWith(PREFIX) || cause.length() == PREFIX.length()
                || cause.length() > PREFIX.length() + 4) {
            return Optional.empty();
        }
        for (int i = PREFIX.length(); i < cause.length(); i++) {
            if (cause.charAt(i) < '0' || cause.charAt(i) > '9') {
                return Optional.empty();
            }
        }
        return Optional.of(Integer.parseInt(cause.substring(PREFIX.length())));
    }
}
