#include "CBox2DScene.h"
#include <box2d/box2d.h>
#include <time.h>
#include <math.h>
#include <stdint.h>

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void add_box(b2Body *body, float hx, float hy, b2Vec2 centre) {
    b2PolygonShape shape;
    shape.SetAsBox(hx, hy, centre, 0.0f);
    b2FixtureDef fd;
    fd.shape = &shape;
    fd.friction = 0.6f;
    fd.restitution = 0.2f;
    body->CreateFixture(&fd);
}

extern "C" double kiosk500_nudge_m(int body, int nudge) {
    if (nudge <= 0) return 0.0;
    // A 32-bit integer hash of (body, nudge): no two nudges repeat each other's pattern.
    uint32_t x = (uint32_t)body * 0x9E3779B1u ^ (uint32_t)nudge * 0x85EBCA77u;
    x ^= x >> 16; x *= 0x7FEB352Du; x ^= x >> 15; x *= 0x846CA68Bu; x ^= x >> 16;
    return (double)((int)(x % 7u) - 3) * 1e-6;
}

extern "C" double kiosk500_box2d_ms_per_step(int steps, int sleeping, int nudge, int *escaped, double *asleep_at_s) {
    b2World world(b2Vec2(0.0f, -10.0f));
    world.SetAllowSleeping(sleeping != 0);

    b2BodyDef groundDef;
    b2Body *ground = world.CreateBody(&groundDef);
    add_box(ground, 12.0f, 0.5f, b2Vec2(0.0f, -0.5f));
    add_box(ground, 0.5f, 15.0f, b2Vec2(-11.5f, 15.0f));
    add_box(ground, 0.5f, 15.0f, b2Vec2(11.5f, 15.0f));

    b2Body *bodies[500];
    for (int i = 0; i < 500; i++) {
        int col = i % 20, row = i / 20;
        b2BodyDef bd;
        bd.type = b2_dynamicBody;
        bd.position.Set((float)(-9.5 + col + 0.25 * (row % 2) + kiosk500_nudge_m(i, nudge)), 1.0f + (float)row);
        bd.angle = 0.1f * (float)(i % 10);
        b2Body *body = world.CreateBody(&bd);
        b2FixtureDef fd;
        b2CircleShape circle;
        b2PolygonShape square;
        if (i % 2 == 0) {
            circle.m_radius = 0.25f;
            fd.shape = &circle;
        } else {
            square.SetAsBox(0.25f, 0.25f);
            fd.shape = &square;
        }
        fd.density = 1.0f;
        fd.friction = 0.6f;
        fd.restitution = 0.2f;
        body->CreateFixture(&fd);
        bodies[i] = body;
    }

    const float dt = 1.0f / 60.0f;
    double asleep = -1.0;
    double start = now_seconds();
    for (int s = 0; s < steps; s++) {
        world.Step(dt, 8, 3);
        // Only when asked: the check would count in the timing otherwise.
        if (sleeping && asleep_at_s && asleep < 0) {
            int awake = 0;
            for (int i = 0; i < 500 && !awake; i++) awake = bodies[i]->IsAwake();
            if (!awake) asleep = (double)(s + 1) * dt;
        }
    }
    double elapsed = now_seconds() - start;

    int out = 0;
    for (int i = 0; i < 500; i++) {
        b2Vec2 p = bodies[i]->GetPosition();
        if (fabsf(p.x) > 11.0f || p.y < 0.0f) out++;
    }
    if (escaped) *escaped = out;
    if (asleep_at_s) *asleep_at_s = asleep;
    return steps > 0 ? elapsed * 1000.0 / (double)steps : 0.0;
}
