package io.gpumeter.collector.kubernetes;

/** An object that parsed but cannot become a fact; the reason is counted and reported to the sender. */
public class Skip extends RuntimeException {

    public Skip(String reason) {
        super(reason, null, false, false);
    }

    public String reason() {
        return getMessage();
    }
}
