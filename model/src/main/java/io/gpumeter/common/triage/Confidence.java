package io.gpumeter.common.triage;

/**
 * How sure a triage is of its cause: HIGH when a fact names it and the alternatives are ruled out by facts, MEDIUM
 * when the facts point at it but an alternative could not be ruled out, LOW when it is what is left.
 */
public enum Confidence {
    HIGH, MEDIUM, LOW
}
