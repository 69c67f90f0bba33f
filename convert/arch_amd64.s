//go:build !purego

#include "textflag.h"

// func shuffleAVX2(dst, src *byte, n int, mask *[32]byte)
// Four blocks per iteration while they last, then one at a time.
TEXT ·shuffleAVX2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ mask+24(FP), AX
	VMOVDQU (AX), Y4

shuf128:
	CMPQ CX, $128
	JB   shuf32
	VMOVDQU 0(SI), Y0
	VMOVDQU 32(SI), Y1
	VMOVDQU 64(SI), Y2
	VMOVDQU 96(SI), Y3
	VPSHUFB Y4, Y0, Y0
	VPSHUFB Y4, Y1, Y1
	VPSHUFB Y4, Y2, Y2
	VPSHUFB Y4, Y3, Y3
	VMOVDQU Y0, 0(DI)
	VMOVDQU Y1, 32(DI)
	VMOVDQU Y2, 64(DI)
	VMOVDQU Y3, 96(DI)
	ADDQ $128, SI
	ADDQ $128, DI
	SUBQ $128, CX
	JMP  shuf128

shuf32:
	CMPQ CX, $32
	JB   shufdone
	VMOVDQU (SI), Y0
	VPSHUFB Y4, Y0, Y0
	VMOVDQU Y0, (DI)
	ADDQ $32, SI
	ADDQ $32, DI
	SUBQ $32, CX
	JMP  shuf32

shufdone:
	VZEROUPPER
	RET

// func even32AVX2(dst, src *byte, n int, mask *[32]byte)
// Per 64 source bytes e0..e15: VSHUFPS $0x88 keeps elements 0 and 2 of
// each 128-bit lane of both inputs (e0 e2 e8 e10 | e4 e6 e12 e14), VPERMQ
// $0xD8 puts the 64-bit pairs in order (e0 e2 e4 ... e14).
TEXT ·even32AVX2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ mask+24(FP), AX
	VMOVDQU (AX), Y4

even32x2:
	CMPQ CX, $64
	JB   even32x1
	VMOVDQU 0(SI), Y0
	VMOVDQU 32(SI), Y1
	VMOVDQU 64(SI), Y2
	VMOVDQU 96(SI), Y3
	VSHUFPS $0x88, Y1, Y0, Y0
	VSHUFPS $0x88, Y3, Y2, Y2
	VPERMQ  $0xD8, Y0, Y0
	VPERMQ  $0xD8, Y2, Y2
	VPSHUFB Y4, Y0, Y0
	VPSHUFB Y4, Y2, Y2
	VMOVDQU Y0, 0(DI)
	VMOVDQU Y2, 32(DI)
	ADDQ $128, SI
	ADDQ $64, DI
	SUBQ $64, CX
	JMP  even32x2

even32x1:
	CMPQ CX, $32
	JB   even32done
	VMOVDQU 0(SI), Y0
	VMOVDQU 32(SI), Y1
	VSHUFPS $0x88, Y1, Y0, Y0
	VPERMQ  $0xD8, Y0, Y0
	VPSHUFB Y4, Y0, Y0
	VMOVDQU Y0, 0(DI)

even32done:
	VZEROUPPER
	RET

// func even64AVX2(dst, src *byte, n int, mask *[32]byte)
// Per 64 source bytes q0..q7: VPUNPCKLQDQ keeps the low quadword of each
// lane of both inputs (q0 q4 | q2 q6), VPERMQ $0xD8 orders them.
TEXT ·even64AVX2(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ mask+24(FP), AX
	VMOVDQU (AX), Y4

even64x2:
	CMPQ CX, $64
	JB   even64x1
	VMOVDQU 0(SI), Y0
	VMOVDQU 32(SI), Y1
	VMOVDQU 64(SI), Y2
	VMOVDQU 96(SI), Y3
	VPUNPCKLQDQ Y1, Y0, Y0
	VPUNPCKLQDQ Y3, Y2, Y2
	VPERMQ  $0xD8, Y0, Y0
	VPERMQ  $0xD8, Y2, Y2
	VPSHUFB Y4, Y0, Y0
	VPSHUFB Y4, Y2, Y2
	VMOVDQU Y0, 0(DI)
	VMOVDQU Y2, 32(DI)
	ADDQ $128, SI
	ADDQ $64, DI
	SUBQ $64, CX
	JMP  even64x2

even64x1:
	CMPQ CX, $32
	JB   even64done
	VMOVDQU 0(SI), Y0
	VMOVDQU 32(SI), Y1
	VPUNPCKLQDQ Y1, Y0, Y0
	VPERMQ  $0xD8, Y0, Y0
	VPSHUFB Y4, Y0, Y0
	VMOVDQU Y0, 0(DI)

even64done:
	VZEROUPPER
	RET

// func gather128AVX(dst, src *byte, n, step int, mask *[32]byte)
// Two 16-byte elements, step bytes apart in src, make one 32-byte vector;
// two vectors per iteration while they last.
TEXT ·gather128AVX(SB), NOSPLIT, $0-40
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ step+24(FP), DX
	MOVQ mask+32(FP), AX
	VMOVDQU (AX), Y4

g128x2:
	CMPQ CX, $64
	JB   g128x1
	VMOVDQU     (SI), X0
	VINSERTI128 $1, (SI)(DX*1), Y0, Y0
	LEAQ        (SI)(DX*2), SI
	VMOVDQU     (SI), X1
	VINSERTI128 $1, (SI)(DX*1), Y1, Y1
	LEAQ        (SI)(DX*2), SI
	VPSHUFB     Y4, Y0, Y0
	VPSHUFB     Y4, Y1, Y1
	VMOVDQU     Y0, 0(DI)
	VMOVDQU     Y1, 32(DI)
	ADDQ        $64, DI
	SUBQ        $64, CX
	JMP         g128x2

g128x1:
	CMPQ CX, $32
	JB   g128done
	VMOVDQU     (SI), X0
	VINSERTI128 $1, (SI)(DX*1), Y0, Y0
	VPSHUFB     Y4, Y0, Y0
	VMOVDQU     Y0, 0(DI)

g128done:
	VZEROUPPER
	RET
