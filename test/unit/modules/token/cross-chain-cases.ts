/**
 * Messages of the interop-dev fixture pair (lisk-sdk 6.1: test/fixtures/chains/interop-dev) and the
 * token and fee events lisk-sdk emitted while processing each one, from events.ndjson at the
 * named height (the CCU transaction's own fee events and the interoperability module's events
 * left out). `ccm` is the encoded message, `txID` the CCU (or recovery) transaction carrying it.
 */
export const MAINCHAIN_49 = {
  ccm: '0a05746f6b656e12127472616e7366657243726f7373436861696e180320002a04040000013204040000003a3e0a0804000000000000001080cab5ee011a143225d2f4bb4e5854cf30d46ed4b435279e3acbfd2214b271d681097a4e96b55b353ebe6e079e9e0bddc62a004004',
  txID: '63bcbe2eaad8fc1a8d8d853bd6982b4db5506704c55bc9e308c337d299c23959',
  events: [
    {
      module: 'token',
      name: 'beforeCCCExecution',
      data: '0a205794f5e6494866595cc672b25ada60d601ce10e22d9631728794c1386ca77dcc120804000000000000001a14da247aac04c669b1acdc9d6bbf3d8c6ba0f88c022000',
      topics: [
        '0463bcbe2eaad8fc1a8d8d853bd6982b4db5506704c55bc9e308c337d299c23959',
        'da247aac04c669b1acdc9d6bbf3d8c6ba0f88c02',
        '0400000000000000',
      ],
    },
    {
      module: 'token',
      name: 'ccmTransfer',
      data: '0a143225d2f4bb4e5854cf30d46ed4b435279e3acbfd12143225d2f4bb4e5854cf30d46ed4b435279e3acbfd1a0804000000000000002080cab5ee012a04040000003000',
      topics: [
        '055794f5e6494866595cc672b25ada60d601ce10e22d9631728794c1386ca77dcc',
        '3225d2f4bb4e5854cf30d46ed4b435279e3acbfd',
        '3225d2f4bb4e5854cf30d46ed4b435279e3acbfd',
      ],
    },
    {
      module: 'fee',
      name: 'relayerFeeProcessed',
      data: '0a205794f5e6494866595cc672b25ada60d601ce10e22d9631728794c1386ca77dcc1214da247aac04c669b1acdc9d6bbf3d8c6ba0f88c0218002000',
      topics: ['055794f5e6494866595cc672b25ada60d601ce10e22d9631728794c1386ca77dcc', 'da247aac04c669b1acdc9d6bbf3d8c6ba0f88c02'],
    },
  ],
};

export const MAINCHAIN_71 = {
  ccm: '0a05746f6b656e12127472616e7366657243726f7373436861696e18012080897a2a04040000013204040000003a3e0a0804000000000000001080c8afa0251a142359ca03d139d62054baa9f167f12c3660ad5ebc2214b38f7a3b3c1ed4a289b428d993d6ab8a3ccab1e12a004000',
  txID: 'ee5090c39c609b6277fe7f6e52cc988ff1ed9554e27b41515e833227dffd6cf6',
  events: [
    {
      module: 'token',
      name: 'beforeCCCExecution',
      data: '0a20c44acc2f14bfdb5d180cf44c0359f26a433e4b46ee311cdc400d97694f5a0244120804000000000000001a14da247aac04c669b1acdc9d6bbf3d8c6ba0f88c022000',
      topics: [
        '04ee5090c39c609b6277fe7f6e52cc988ff1ed9554e27b41515e833227dffd6cf6',
        'da247aac04c669b1acdc9d6bbf3d8c6ba0f88c02',
        '0400000000000000',
      ],
    },
    {
      module: 'token',
      name: 'lock',
      data: '0a14da247aac04c669b1acdc9d6bbf3d8c6ba0f88c0212036665651a0804000000000000002080897a2800',
      topics: ['04ee5090c39c609b6277fe7f6e52cc988ff1ed9554e27b41515e833227dffd6cf6', 'da247aac04c669b1acdc9d6bbf3d8c6ba0f88c02'],
    },
    {
      module: 'token',
      name: 'ccmTransfer',
      data: '0a142359ca03d139d62054baa9f167f12c3660ad5ebc1214b38f7a3b3c1ed4a289b428d993d6ab8a3ccab1e11a0804000000000000002080c8afa0252a04040000003000',
      topics: [
        '05c44acc2f14bfdb5d180cf44c0359f26a433e4b46ee311cdc400d97694f5a0244',
        '2359ca03d139d62054baa9f167f12c3660ad5ebc',
        'b38f7a3b3c1ed4a289b428d993d6ab8a3ccab1e1',
      ],
    },
    {
      module: 'token',
      name: 'unlock',
      data: '0a14da247aac04c669b1acdc9d6bbf3d8c6ba0f88c0212036665651a0804000000000000002080897a2800',
      topics: ['04ee5090c39c609b6277fe7f6e52cc988ff1ed9554e27b41515e833227dffd6cf6', 'da247aac04c669b1acdc9d6bbf3d8c6ba0f88c02'],
    },
    {
      module: 'fee',
      name: 'relayerFeeProcessed',
      data: '0a20c44acc2f14bfdb5d180cf44c0359f26a433e4b46ee311cdc400d97694f5a02441214da247aac04c669b1acdc9d6bbf3d8c6ba0f88c0218002080897a',
      topics: ['05c44acc2f14bfdb5d180cf44c0359f26a433e4b46ee311cdc400d97694f5a0244', 'da247aac04c669b1acdc9d6bbf3d8c6ba0f88c02'],
    },
  ],
};

export const MAINCHAIN_91 = {
  ccm: '0a05746f6b656e12127472616e7366657243726f7373436861696e180320c0843d2a04040000013204040000003a3f0a0804000001000000001080e8eda1ba011a1494a2cfeb15e3286b86eb44fa343b3675a5a4e1d12214b38f7a3b3c1ed4a289b428d993d6ab8a3ccab1e12a004000',
  txID: '34e3d7433c9feb4151781290336a8725f4ea62ec6d89dfacfa0deae4608a2054',
  events: [
    {
      module: 'token',
      name: 'beforeCCCExecution',
      data: '0a206e15daf73713de84005d754438ce87fb734a13fdef4a29756ed884f765c55154120804000000000000001a14da247aac04c669b1acdc9d6bbf3d8c6ba0f88c022000',
      topics: [
        '0434e3d7433c9feb4151781290336a8725f4ea62ec6d89dfacfa0deae4608a2054',
        'da247aac04c669b1acdc9d6bbf3d8c6ba0f88c02',
        '0400000000000000',
      ],
    },
    {
      module: 'token',
      name: 'lock',
      data: '0a14da247aac04c669b1acdc9d6bbf3d8c6ba0f88c0212036665651a08040000000000000020c0843d2800',
      topics: ['0434e3d7433c9feb4151781290336a8725f4ea62ec6d89dfacfa0deae4608a2054', 'da247aac04c669b1acdc9d6bbf3d8c6ba0f88c02'],
    },
    {
      module: 'token',
      name: 'ccmTransfer',
      data: '0a1494a2cfeb15e3286b86eb44fa343b3675a5a4e1d11214b38f7a3b3c1ed4a289b428d993d6ab8a3ccab1e11a0804000001000000002080e8eda1ba012a04040000003004',
      topics: [
        '056e15daf73713de84005d754438ce87fb734a13fdef4a29756ed884f765c55154',
        '94a2cfeb15e3286b86eb44fa343b3675a5a4e1d1',
        'b38f7a3b3c1ed4a289b428d993d6ab8a3ccab1e1',
      ],
    },
    {
      module: 'token',
      name: 'unlock',
      data: '0a14da247aac04c669b1acdc9d6bbf3d8c6ba0f88c0212036665651a08040000000000000020c0843d2800',
      topics: ['0434e3d7433c9feb4151781290336a8725f4ea62ec6d89dfacfa0deae4608a2054', 'da247aac04c669b1acdc9d6bbf3d8c6ba0f88c02'],
    },
    {
      module: 'fee',
      name: 'relayerFeeProcessed',
      data: '0a206e15daf73713de84005d754438ce87fb734a13fdef4a29756ed884f765c551541214da247aac04c669b1acdc9d6bbf3d8c6ba0f88c02180020c0843d',
      topics: ['056e15daf73713de84005d754438ce87fb734a13fdef4a29756ed884f765c55154', 'da247aac04c669b1acdc9d6bbf3d8c6ba0f88c02'],
    },
  ],
};

export const MAINCHAIN_115 = {
  ccm: '0a05746f6b656e12127472616e7366657243726f7373436861696e180420002a04040000013204040000003a3e0a0804000001000000001080d88ee16f1a1494a2cfeb15e3286b86eb44fa343b3675a5a4e1d1221437ed341994bfc5274daeacbe954fc2db75318a012a004000',
  txID: '64c74b303067a898a6e7a7439476f98fb34a563c2e206eb7874b0604207fa709',
  events: [
    {
      module: 'token',
      name: 'beforeCCCExecution',
      data: '0a209055a63cf2d88ba323021933e19aa980585a79321cec221aa07b1d0c582d92de120804000000000000001a14da247aac04c669b1acdc9d6bbf3d8c6ba0f88c022000',
      topics: [
        '0464c74b303067a898a6e7a7439476f98fb34a563c2e206eb7874b0604207fa709',
        'da247aac04c669b1acdc9d6bbf3d8c6ba0f88c02',
        '0400000000000000',
      ],
    },
    {
      module: 'token',
      name: 'ccmTransfer',
      data: '0a1494a2cfeb15e3286b86eb44fa343b3675a5a4e1d1121437ed341994bfc5274daeacbe954fc2db75318a011a0804000001000000002080d88ee16f2a04040000003004',
      topics: [
        '059055a63cf2d88ba323021933e19aa980585a79321cec221aa07b1d0c582d92de',
        '94a2cfeb15e3286b86eb44fa343b3675a5a4e1d1',
        '37ed341994bfc5274daeacbe954fc2db75318a01',
      ],
    },
    {
      module: 'fee',
      name: 'relayerFeeProcessed',
      data: '0a209055a63cf2d88ba323021933e19aa980585a79321cec221aa07b1d0c582d92de1214da247aac04c669b1acdc9d6bbf3d8c6ba0f88c0218002000',
      topics: ['059055a63cf2d88ba323021933e19aa980585a79321cec221aa07b1d0c582d92de', 'da247aac04c669b1acdc9d6bbf3d8c6ba0f88c02'],
    },
  ],
};

export const MAINCHAIN_127 = {
  ccm: '0a05746f6b656e12127472616e7366657243726f7373436861696e180520c0843d2a04040000013204040000993a3e0a0804000001000000001080dad2d71c1a142359ca03d139d62054baa9f167f12c3660ad5ebc221437ed341994bfc5274daeacbe954fc2db75318a012a004000',
  txID: 'b6adc776a2c5497cb2e0e040d8432c53450a2a4c969dbf931549fedf681e26b8',
  events: [
    {
      module: 'token',
      name: 'beforeCCMForwarding',
      data: '0a20750f7b81a25ead1f2494cd3f9bce031f138e5ad042e3000360918ddd01321af4120804000000000000001800',
      topics: ['04b6adc776a2c5497cb2e0e040d8432c53450a2a4c969dbf931549fedf681e26b8', '04000001', '04000099'],
    },
  ],
};

export const MAINCHAIN_181 = {
  ccm: '0a05746f6b656e12127472616e7366657243726f7373436861696e180820002a04040000013204040000783a3e0a0804000001000000001080f4f6905d1a148770627329a902012f752412a99c4ae1ee6865a02214644f5ef800272f9b4e833e0b848bee8d50c82f2a2a004000',
  txID: '83fc8f0ef718d82d89af876abf7ab1b5b69ef15185cca61b5d20ee2d0f08837c',
  events: [
    {
      module: 'token',
      name: 'beforeCCMForwarding',
      data: '0a20a04d95b8d48ef2176aa65c6819f46672ad9f7b7a7aed75994f43f1b9a587fced120804000000000000001800',
      topics: ['0483fc8f0ef718d82d89af876abf7ab1b5b69ef15185cca61b5d20ee2d0f08837c', '04000001', '04000078'],
    },
  ],
};

export const SIDECHAIN_22 = {
  ccm: '0a05746f6b656e12127472616e7366657243726f7373436861696e18012080ade2042a04040000003204040000013a3f0a0804000000000000001080d0dbc3f4021a143225d2f4bb4e5854cf30d46ed4b435279e3acbfd22142359ca03d139d62054baa9f167f12c3660ad5ebc2a004000',
  txID: '3f2941ff5ee6ece428acc7a696da824cd7afbc420ba884fa4e9b1beed792c49c',
  events: [
    {
      module: 'token',
      name: 'beforeCCCExecution',
      data: '0a20687e3db9ddc427b472a03e33fc47724c5d791e465638fc311669952951c0f581120804000000000000001a1494faff9999dd5a62215bad0127362a2d6989f5bc2000',
      topics: [
        '043f2941ff5ee6ece428acc7a696da824cd7afbc420ba884fa4e9b1beed792c49c',
        '94faff9999dd5a62215bad0127362a2d6989f5bc',
        '0400000000000000',
      ],
    },
    {
      module: 'token',
      name: 'lock',
      data: '0a1494faff9999dd5a62215bad0127362a2d6989f5bc12036665651a0804000000000000002080ade2042800',
      topics: ['043f2941ff5ee6ece428acc7a696da824cd7afbc420ba884fa4e9b1beed792c49c', '94faff9999dd5a62215bad0127362a2d6989f5bc'],
    },
    {
      module: 'token',
      name: 'initializeUserAccount',
      data: '0a142359ca03d139d62054baa9f167f12c3660ad5ebc1208040000000000000018c096b1022000',
      topics: ['043f2941ff5ee6ece428acc7a696da824cd7afbc420ba884fa4e9b1beed792c49c', '2359ca03d139d62054baa9f167f12c3660ad5ebc'],
    },
    {
      module: 'token',
      name: 'ccmTransfer',
      data: '0a143225d2f4bb4e5854cf30d46ed4b435279e3acbfd12142359ca03d139d62054baa9f167f12c3660ad5ebc1a0804000000000000002080d0dbc3f4022a04040000013000',
      topics: [
        '05687e3db9ddc427b472a03e33fc47724c5d791e465638fc311669952951c0f581',
        '3225d2f4bb4e5854cf30d46ed4b435279e3acbfd',
        '2359ca03d139d62054baa9f167f12c3660ad5ebc',
      ],
    },
    {
      module: 'token',
      name: 'unlock',
      data: '0a1494faff9999dd5a62215bad0127362a2d6989f5bc12036665651a0804000000000000002080ade2042800',
      topics: ['043f2941ff5ee6ece428acc7a696da824cd7afbc420ba884fa4e9b1beed792c49c', '94faff9999dd5a62215bad0127362a2d6989f5bc'],
    },
    {
      module: 'token',
      name: 'burn',
      data: '0a1494faff9999dd5a62215bad0127362a2d6989f5bc1208040000000000000018c096b1022000',
      topics: ['043f2941ff5ee6ece428acc7a696da824cd7afbc420ba884fa4e9b1beed792c49c', '94faff9999dd5a62215bad0127362a2d6989f5bc'],
    },
    {
      module: 'fee',
      name: 'relayerFeeProcessed',
      data: '0a20687e3db9ddc427b472a03e33fc47724c5d791e465638fc311669952951c0f581121494faff9999dd5a62215bad0127362a2d6989f5bc18c096b10220c096b102',
      topics: ['05687e3db9ddc427b472a03e33fc47724c5d791e465638fc311669952951c0f581', '94faff9999dd5a62215bad0127362a2d6989f5bc'],
    },
  ],
};

export const SIDECHAIN_40 = {
  ccm: '0a05746f6b656e12127472616e7366657243726f7373436861696e180320c0843d2a04040000003204040000013a3e0a0804000000000000001080cab5ee011a143225d2f4bb4e5854cf30d46ed4b435279e3acbfd2214b271d681097a4e96b55b353ebe6e079e9e0bddc62a004000',
  txID: '474d8666b8c05b9f1473f52943efe0c4e17237e0ea23483d28a91fbd1445bcac',
  events: [
    {
      module: 'token',
      name: 'beforeCCCExecution',
      data: '0a209206c7c92e1aee8892910acf96ba3c9b8fe2cf4eccbcc6a2f4b38700c941ccfa120804000000000000001a1494faff9999dd5a62215bad0127362a2d6989f5bc2000',
      topics: [
        '04474d8666b8c05b9f1473f52943efe0c4e17237e0ea23483d28a91fbd1445bcac',
        '94faff9999dd5a62215bad0127362a2d6989f5bc',
        '0400000000000000',
      ],
    },
    {
      module: 'token',
      name: 'lock',
      data: '0a1494faff9999dd5a62215bad0127362a2d6989f5bc12036665651a08040000000000000020c0843d2800',
      topics: ['04474d8666b8c05b9f1473f52943efe0c4e17237e0ea23483d28a91fbd1445bcac', '94faff9999dd5a62215bad0127362a2d6989f5bc'],
    },
    { module: 'fee', name: 'insufficientFee', data: '', topics: ['04474d8666b8c05b9f1473f52943efe0c4e17237e0ea23483d28a91fbd1445bcac'] },
    {
      module: 'token',
      name: 'unlock',
      data: '0a1494faff9999dd5a62215bad0127362a2d6989f5bc12036665651a08040000000000000020c0843d2800',
      topics: ['04474d8666b8c05b9f1473f52943efe0c4e17237e0ea23483d28a91fbd1445bcac', '94faff9999dd5a62215bad0127362a2d6989f5bc'],
    },
    {
      module: 'token',
      name: 'burn',
      data: '0a1494faff9999dd5a62215bad0127362a2d6989f5bc1208040000000000000018c0843d2000',
      topics: ['04474d8666b8c05b9f1473f52943efe0c4e17237e0ea23483d28a91fbd1445bcac', '94faff9999dd5a62215bad0127362a2d6989f5bc'],
    },
    {
      module: 'fee',
      name: 'relayerFeeProcessed',
      data: '0a209206c7c92e1aee8892910acf96ba3c9b8fe2cf4eccbcc6a2f4b38700c941ccfa121494faff9999dd5a62215bad0127362a2d6989f5bc18c0843d2000',
      topics: ['059206c7c92e1aee8892910acf96ba3c9b8fe2cf4eccbcc6a2f4b38700c941ccfa', '94faff9999dd5a62215bad0127362a2d6989f5bc'],
    },
  ],
};

export const SIDECHAIN_60 = {
  ccm: '0a05746f6b656e12127472616e7366657243726f7373436861696e180420002a04040000003204040000013a3e0a080400000000000000108094ebdc031a141f28793dde6f417a112a7b2b4889e6513c7edfa1221466133ca68c342ecaa5d20b2ccd26fbb14a934e832a004000',
  txID: '821e194afb82227155a163ce5dfd41a7f100686a23ff7ee4828af742255795bd',
  events: [
    {
      module: 'token',
      name: 'beforeCCCExecution',
      data: '0a2064d894e846226ddc28b6e890bcf89c325a6f74c1db6831e7393d3056144e81b6120804000000000000001a1494faff9999dd5a62215bad0127362a2d6989f5bc2000',
      topics: [
        '04821e194afb82227155a163ce5dfd41a7f100686a23ff7ee4828af742255795bd',
        '94faff9999dd5a62215bad0127362a2d6989f5bc',
        '0400000000000000',
      ],
    },
    { module: 'fee', name: 'insufficientFee', data: '', topics: ['04821e194afb82227155a163ce5dfd41a7f100686a23ff7ee4828af742255795bd'] },
    {
      module: 'fee',
      name: 'relayerFeeProcessed',
      data: '0a2064d894e846226ddc28b6e890bcf89c325a6f74c1db6831e7393d3056144e81b6121494faff9999dd5a62215bad0127362a2d6989f5bc18002000',
      topics: ['0564d894e846226ddc28b6e890bcf89c325a6f74c1db6831e7393d3056144e81b6', '94faff9999dd5a62215bad0127362a2d6989f5bc'],
    },
  ],
};
/**
 * Mainchain height 186: the recoverState transaction that recovered pu0's LSK from the terminated
 * phantom chain 04000077. The proven entry, and the two token events of its execution.
 */
export const MAINCHAIN_186_RECOVERY = {
  txID: 'e4d835feb4be845f89f3b618fca9ed2c3a2d67c8e1eb58fa125a7b932831d4ba',
  terminatedChainID: '04000077',
  substorePrefix: '0000',
  storeKey: '630e55fcc5e86fc2f32e9a489d3a7610b723eb630400000000000000',
  storeValue: '0880bcc1960b',
  events: [
    {
      module: 'token',
      name: 'initializeUserAccount',
      data: '0a14630e55fcc5e86fc2f32e9a489d3a7610b723eb631208040000000000000018c096b1022000',
      topics: ['04e4d835feb4be845f89f3b618fca9ed2c3a2d67c8e1eb58fa125a7b932831d4ba', '630e55fcc5e86fc2f32e9a489d3a7610b723eb63'],
    },
    {
      module: 'token',
      name: 'recover',
      data: '0a0404000077120804000000000000001880bcc1960b2000',
      topics: ['04e4d835feb4be845f89f3b618fca9ed2c3a2d67c8e1eb58fa125a7b932831d4ba', '630e55fcc5e86fc2f32e9a489d3a7610b723eb63'],
    },
  ],
  /** final_state_kv.json at the tip (nothing touched either entry after height 186). */
  finalUserValue: '0880bcc1960b',
  finalEscrowValue: '08c088bdaa09',
};
