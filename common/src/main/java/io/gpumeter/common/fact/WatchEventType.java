package io.gpumeter.common.fact;

/** The kind of change a Kubernetes watch event reports. */
public enum WatchEventType {
    ADDED, MODIFIED, DELETED;

    /** Strict parser: anything but the three watch verbs is refused with the accepted values in the message. */
    public static WatchEventType parse(String text) {
        if (text != null) {
            for (WatchEventType t : values()) {
                if (t.name().equals(text)) {
                    return t;
                }
            }
        }
        throw new IllegalArgumentException("type must be one of ADDED, MODIFIED, DELETED, got " + (text == null ? "nothing" : "'" + text + "'"));
    }
}
