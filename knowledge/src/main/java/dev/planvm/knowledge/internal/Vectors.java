package dev.planvm.knowledge.internal;

/** Vector helpers. */
public final class Vectors {

    private Vectors() {}

    /**
     * A unit-length copy of {@code vector}.
     *
     * @throws IllegalArgumentException for a zero vector or one holding NaN or infinity
     */
    public static float[] normalized(float[] vector) {
        double sum = 0;
        for (float v : vector) {
            sum += (double) v * v;
        }
        if (!(sum > 0) || Double.isInfinite(sum)) {
            throw new IllegalArgumentException("the vector is zero or not finite");
        }
        double norm = Math.sqrt(sum);
        float[] unit = new float[vector.length];
        for (int i = 0; i < vector.length; i++) {
            unit[i] = (float) (vector[i] / norm);
        }
        return unit;
    }

    /** The dot product. */
    public static float dot(float[] a, float[] b) {
        float sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += a[i] * b[i];
        }
        return sum;
    }
}
