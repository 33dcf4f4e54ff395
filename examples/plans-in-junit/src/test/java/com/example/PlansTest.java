package com.example;

import dev.planvm.junit.PlanTests;

/**
 * Every plan of plans/ is a test: replayed with its cassette, compared with its expectation. The class
 * needs no method.
 */
@PlanTests("plans")
class PlansTest {}
